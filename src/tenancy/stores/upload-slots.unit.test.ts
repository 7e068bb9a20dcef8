import { describe, expect, it } from 'vitest';
import { uploadSlots } from './upload-slots.js';

describe('upload slots', () => {
  it('lets the limit through at once, queues the rest in arrival order, and frees a slot once per release', async () => {
    const slots = uploadSlots(2);
    const order: string[] = [];
    const first = await slots.acquire();
    const second = await slots.acquire();
    const noting = (name: string) => (release: () => void) => {
      order.push(name);
      return release;
    };
    const third = slots.acquire().then(noting('third'));
    const fourth = slots.acquire().then(noting('fourth'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);

    first();
    first(); // a second release of the same slot frees nothing more
    const releaseThird = await third;
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['third']);

    second();
    const releaseFourth = await fourth;
    expect(order).toEqual(['third', 'fourth']);

    releaseThird();
    releaseFourth();
    // Both slots are free again: two acquire at once, a third would wait.
    await slots.acquire();
    await slots.acquire();
    let waited = true;
    void slots.acquire().then(() => {
      waited = false;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(waited).toBe(true);
  });
});
