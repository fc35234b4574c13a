import { BUSINESS_TIME_ZONE } from '../core/local-date.js';

const FORMAT = new Intl.DateTimeFormat('pt-BR', {
  timeZone: BUSINESS_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** An instant as the panel shows it, in Brasília time: `15/01/2026 09:00`. */
export const formatInstant = (at: Date): string => FORMAT.format(at).replace(',', '');
