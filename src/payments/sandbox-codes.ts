/** Pix and bank slip codes of sandbox charges: well formed, visibly fake, never payable at a real bank. */

const tlv = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;

/** CRC16-CCITT (0x1021, initial 0xFFFF), the checksum that closes a Pix BR Code. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

const ascii = (text: string, max: number) =>
  text
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .toUpperCase()
    .slice(0, max) || 'SANDBOX';

/** A Pix copy-and-paste (BR Code) whose key is the sandbox's own URL for the charge. */
export function pixCode(chargeId: string, amountCents: number, merchant: string): string {
  const account = tlv('00', 'br.gov.bcb.pix') + tlv('25', `sandbox.pix.invalid/qr/${chargeId}`);
  const amount = `${Math.floor(amountCents / 100)}.${String(amountCents % 100).padStart(2, '0')}`;
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', account) +
    tlv('52', '0000') +
    tlv('53', '986') +
    tlv('54', amount) +
    tlv('58', 'BR') +
    tlv('59', ascii(merchant, 25)) +
    tlv('60', 'SAO PAULO') +
    tlv('62', tlv('05', chargeId.replace(/-/g, '').slice(0, 25))) +
    '6304';
  return body + crc16(body);
}

/** A 47-digit bank slip line of the sandbox bank 999: the charge id's digits and the amount. */
export function digitableLine(chargeId: string, amountCents: number): string {
  const digits = BigInt(`0x${chargeId.replace(/-/g, '')}`)
    .toString()
    .padStart(27, '0')
    .slice(-27);
  const amount = String(amountCents).padStart(10, '0').slice(-10);
  const raw = `9999${digits}0000${amount}`.padEnd(47, '0').slice(0, 47);
  return `${raw.slice(0, 5)}.${raw.slice(5, 10)} ${raw.slice(10, 15)}.${raw.slice(15, 21)} ${raw.slice(21, 26)}.${raw.slice(26, 32)} ${raw.slice(32, 33)} ${raw.slice(33)}`;
}
