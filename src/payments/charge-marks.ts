import QRCode from 'qrcode';

import { html, type SafeHtml } from '../pages/html.js';

/** The Pix code as a QR image (SVG data URI), drawn from the module matrix so pages render synchronously. */
export function pixQrImage(text: string, label: string): SafeHtml {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = modules.size;
  const quiet = 2;
  let path = '';
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) if (modules.get(x, y)) path += `M${x + quiet} ${y + quiet}h1v1h-1z`;
  const box = size + quiet * 2;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${box} ${box}" shape-rendering="crispEdges"><rect width="100%" height="100%" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
  return html`<img src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}" alt="${label}" width="192" height="192">`;
}

/** A bank slip's digitable line in its five printed groups (47 digits); other text as given. */
export function groupDigitableLine(line: string): string {
  const d = line.replace(/\D/g, '');
  if (d.length !== 47) return line;
  return `${d.slice(0, 5)}.${d.slice(5, 10)} ${d.slice(10, 15)}.${d.slice(15, 21)} ${d.slice(21, 26)}.${d.slice(26, 32)} ${d[32]} ${d.slice(33)}`;
}
