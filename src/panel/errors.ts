import { ApiError } from '../core/errors.js';

/** A refusal the panel shows as a page of its own: a title and a sentence in pt-BR. */
export class PanelError extends ApiError {
  constructor(
    status: number,
    code: string,
    message: string,
    readonly title: string,
    readonly text: string,
  ) {
    super(status, code, message);
  }
}

export class Forbidden extends PanelError {
  constructor() {
    super(
      403,
      'PANEL-001',
      'The profile of this user does not open this page',
      'Acesso não permitido',
      'O seu perfil não dá acesso a esta página. Se precisar dela, fale com quem administra os usuários do seu painel.',
    );
  }
}

export class FormRefused extends PanelError {
  constructor(readonly reason: 'origin' | 'token') {
    super(
      403,
      'PANEL-002',
      reason === 'origin' ? 'The form was not sent from a page of this service' : 'Missing or stale form token',
      'Formulário expirado',
      'Este formulário não é mais válido (a sessão pode ter expirado). Abra a página de novo e envie outra vez.',
    );
  }
}

export class PanelPageNotFound extends PanelError {
  constructor() {
    super(404, 'PANEL-003', 'No such page in the panel', 'Página não encontrada', 'Esta página não existe no painel.');
  }
}

const FORM_ID_TEXTS = {
  missing: 'Este formulário chegou sem a sua identificação.',
  malformed: 'Este formulário chegou com uma identificação que não é nossa.',
  foreign: 'Este formulário pertence a outra página ou a outro usuário.',
  expired: 'Este formulário expirou.',
};

/** A creating form whose one-time id is missing, not ours, of another form or user, or too old: nothing is made. */
export class FormIdRefused extends PanelError {
  constructor(readonly reason: keyof typeof FORM_ID_TEXTS) {
    super(
      reason === 'foreign' ? 403 : 400,
      'PANEL-004',
      `The one-time form id is ${reason}`,
      'Formulário não aceito',
      `${FORM_ID_TEXTS[reason]} Nada foi criado. Abra a página de novo e envie outra vez.`,
    );
  }
}

/** A record of the tenant the page names that does not exist (or is another tenant's): the panel's 404 page. */
export class RecordNotFound extends PanelError {
  constructor(title: string, text: string) {
    super(404, 'PANEL-005', 'No such record of this tenant', title, text);
  }
}

/** A `continuable` the list did not issue (altered, of another filter or list): the way back is the first page. */
export class PageLinkRefused extends PanelError {
  constructor() {
    super(
      400,
      'PANEL-006',
      'continuable is not a token this list issued',
      'Página não encontrada na lista',
      'O endereço desta página da lista não é válido (foi alterado, ou os filtros mudaram). Volte à primeira página da lista.',
    );
  }
}
