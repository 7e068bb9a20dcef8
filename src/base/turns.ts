/**
 * A long piece of work over many rows (an import's 50,000 lines) stops every TURN_EVERY rows to let
 * the event loop turn: other requests are served between its pieces rather than after it whole.
 */
export const TURN_EVERY = 5_000;

/** Resolves on the event loop's next turn, after the I/O waiting now. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `work` for each item, letting the loop turn every TURN_EVERY items. */
export async function eachInTurns<T>(items: readonly T[], work: (item: T, index: number) => void): Promise<void> {
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % TURN_EVERY === 0) await nextTurn();
    work(items[i]!, i);
  }
}
