/** How often the observer asks: 20 times a second. */
export const OBSERVER_EVERY_MS = 50;

/**
 * Another account's `GET /warehouses` every OBSERVER_EVERY_MS, each on its own (a slow answer does
 * not hold back the next ask): what a merchant's panel or integration feels while a benchmark's
 * heavy work runs. The returned stop ends the asking, waits for the answers out, and gives their
 * latencies in milliseconds, sorted, the asks in the order they were made (when, and how long each
 * took), and how many failed.
 */
export function observe(url: string, apiKey: string) {
  const asked: { at: number; ms: number }[] = [];
  const pending = new Set<Promise<void>>();
  let failures = 0;
  const timer = setInterval(() => {
    const started = performance.now();
    const ask = fetch(`${url}/custom/api/v1/warehouses`, { headers: { authorization: apiKey } })
      .then(async (response) => {
        await response.arrayBuffer();
        if (response.status !== 200) failures++;
        asked.push({ at: started, ms: performance.now() - started });
      })
      .catch(() => {
        failures++;
      })
      .finally(() => pending.delete(ask));
    pending.add(ask);
  }, OBSERVER_EVERY_MS);
  return async () => {
    clearInterval(timer);
    await Promise.all(pending);
    asked.sort((a, b) => a.at - b.at);
    return { latencies: asked.map((ask) => ask.ms).sort((a, b) => a - b), asked, failures };
  };
}
