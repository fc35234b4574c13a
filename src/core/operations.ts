/** Bodies of the operations of an openapi-typescript `operations` map (types only). */

/** The JSON body of one response or request of an operation. */
export type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

type SuccessStatus = 200 | 201 | 202;

/** The body of an operation's success response: what its service returns and its handler sends as is. */
export type SuccessBody<Op> = Op extends { responses: infer R }
  ? { [S in keyof R]: S extends SuccessStatus ? JsonOf<R[S]> : never }[keyof R]
  : never;
