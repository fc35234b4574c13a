/** The words of a batch in the panel: its kind and its status as `GET /v1/lotes/{id}` names them. */
export const BATCH_KINDS: Record<string, string> = { aluno: 'Alunos', parcela: 'Parcelas' };

export const BATCH_STATUSES: Record<string, string> = {
  RECEBIDO: 'Recebido',
  PROCESSANDO: 'Processando',
  PROCESSADO: 'Processado',
  PROCESSADO_COM_ERROS: 'Processado com erros',
};
