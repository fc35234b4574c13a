/**
 * The one shape of an insert under a unique key. `insert … on conflict do nothing returning …`
 * never raises a unique violation (nor aborts the transaction around it), so a duplicate that was
 * there first and one that won a race are found the same way: nothing comes back, and the row
 * holding the key is read to name it in the rule's error.
 *
 * The row holding the key may be deleted between the two statements; the insert is then tried again.
 */
export async function insertUnique<Row, Holder>(options: {
  /** The insert, with `.onConflictDoNothing()` on the unique key and `.returning()`. */
  insert: () => Promise<Row[]>;
  /** The row that holds the key, if any. */
  holder: () => Promise<Holder | undefined>;
  /** The rule's error, naming the holder. */
  refuse: (holder: Holder) => Error;
}): Promise<Row> {
  for (let attempt = 0; ; attempt++) {
    const [row] = await options.insert();
    if (row) return row;
    const holder = await options.holder();
    if (holder) throw options.refuse(holder);
    if (attempt === 2) throw new Error('an insert kept conflicting on a key that no row holds');
  }
}
