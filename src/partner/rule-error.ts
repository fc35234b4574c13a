import { ApiError } from '../core/errors.js';

export interface RuleErrorOptions {
  /** What `details[0].message` says about the field. (Default: the message) */
  detail?: string;
  /** Field path under `body`, when it is not the rule's own field (array items). */
  field?: string;
}

/**
 * A class of 400 errors for one business rule of a partner body: its own code, a message that
 * starts with the field, and one `details` entry pointing at `body.<field>`.
 * `class CoursePriceBelowMinimum extends ruleError('COURSE-002', 'price') {}`
 */
export function ruleError(code: string, field: string) {
  return class RuleBroken extends ApiError {
    constructor(message: string, options: RuleErrorOptions = {}) {
      const path = options.field ?? field;
      super(400, code, `${path}: ${message}`, [{ path: `body.${path}`, message: options.detail ?? message }]);
    }
  };
}
