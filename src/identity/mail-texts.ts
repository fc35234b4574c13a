import { html, type SafeHtml } from '../core/html.js';
import { BUSINESS_TIME_ZONE } from '../core/local-date.js';
import type { IssuedLink, LinkPurpose } from './links.js';
import type { MailMessage } from './mail.js';

/** Who a message goes to, and whose panel it speaks of (a person may be told apart by partner). */
export interface Recipient {
  email: string;
  tenantName: string;
}

/** A paragraph, or a link the reader follows (in the text, its address alone on a line). */
type Block = string | { href: string; label: string };

const FORMAT = new Intl.DateTimeFormat('pt-BR', {
  timeZone: BUSINESS_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** `31/03/2026 às 23:59 (horário de Brasília)`: the reader's time, whatever the server's zone. */
export function brasiliaTime(at: Date): string {
  const part = (type: Intl.DateTimeFormatPartTypes) => FORMAT.formatToParts(at).find((p) => p.type === type)!.value;
  return `${part('day')}/${part('month')}/${part('year')} às ${part('hour')}:${part('minute')} (horário de Brasília)`;
}

const htmlBlock = (block: Block): SafeHtml =>
  typeof block === 'string'
    ? html`<p>${block}</p>\n`
    : html`<p><a href="${block.href}">${block.label}</a></p>
<p>Se o link não abrir, copie este endereço no navegador:<br>${block.href}</p>\n`;

/** The same blocks as plain text and as HTML, so that the two never say different things. */
function compose(to: string, subject: string, blocks: Block[]): MailMessage {
  return {
    to,
    subject,
    text: `${blocks.map((b) => (typeof b === 'string' ? b : b.href)).join('\n\n')}\n`,
    html: html`<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><title>${subject}</title></head>
<body>
${blocks.map(htmlBlock)}</body>
</html>
`.value,
  };
}

/** An invitation, or a link to set a new password: the link, until when it opens, whose panel. */
export function linkMail(purpose: LinkPurpose, to: Recipient, link: IssuedLink): MailMessage {
  const until = `O link vale até ${brasiliaTime(link.expiresAt)} e só pode ser usado uma vez.`;
  return purpose === 'invitation'
    ? compose(to.email, `Seu convite para o painel de ${to.tenantName}`, [
        `Você foi convidado para o painel de ${to.tenantName}. Para entrar, defina a sua senha:`,
        { href: link.url, label: 'Definir minha senha' },
        `${until} Se não esperava este convite, ignore esta mensagem.`,
      ])
    : compose(to.email, `Redefinição de senha do painel de ${to.tenantName}`, [
        `Foi pedido um link para definir uma nova senha para ${to.email} no painel de ${to.tenantName}:`,
        { href: link.url, label: 'Definir uma nova senha' },
        `${until} Se não foi você que pediu, ignore esta mensagem: sua senha continua a mesma.`,
      ]);
}

/**
 * An invitation to a person who already signs in to the panel (for another tenant): they accept it
 * signed in, with the password they have; nothing here asks for a new one.
 */
export function invitationToPersonMail(to: Recipient, link: IssuedLink): MailMessage {
  return compose(to.email, `${to.tenantName} convidou você para o painel`, [
    `${to.tenantName} convidou ${to.email} para o painel. Você já entra no painel com este e-mail: abra o convite, entre com a senha de sempre e aceite-o. Depois, troque de conta pelo topo do painel.`,
    { href: link.url, label: 'Ver o convite' },
    `O convite vale até ${brasiliaTime(link.expiresAt)}. Se não esperava este convite, ignore esta mensagem: nada muda na sua conta.`,
  ]);
}

/** Tells the owner of an account that its password changed, in case it was not them. */
export function passwordChangedMail(to: Recipient, at: Date, baseUrl: string): MailMessage {
  return compose(to.email, `Sua senha do painel de ${to.tenantName} foi alterada`, [
    `A senha de ${to.email} no painel de ${to.tenantName} foi alterada em ${brasiliaTime(at)}. As sessões abertas em outros navegadores foram encerradas.`,
    'Se não foi você, peça agora um link para definir uma nova senha e avise quem administra os usuários do painel (Superadmin ou Administrador):',
    { href: `${baseUrl}/painel/esqueci-senha`, label: 'Pedir um link de nova senha' },
  ]);
}

/** Tells the owner of an account that guesses locked its sign-in, and that their own browsers still get in. */
export function accountLockedMail(to: Recipient, until: Date, baseUrl: string): MailMessage {
  return compose(to.email, `Entrada bloqueada no painel de ${to.tenantName}`, [
    `Houve muitas tentativas de entrar com ${to.email} no painel de ${to.tenantName} com a senha errada. Por segurança, a entrada com este e-mail está bloqueada até ${brasiliaTime(until)} nos navegadores em que você nunca entrou; os navegadores em que você já entrou continuam entrando.`,
    'Se não foi você, alguém pode estar tentando adivinhar a sua senha. Se ela for fraca ou usada em outro lugar, defina uma nova:',
    { href: `${baseUrl}/painel/esqueci-senha`, label: 'Pedir um link de nova senha' },
  ]);
}
