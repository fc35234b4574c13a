/** What is wrong with one item of a batch: its index in the request, the field (a readable path) and why. */
export interface ItemError {
  index: number;
  field: string;
  message: string;
}
