/**
 * A bound on how many logo uploads a process reads and stores at once. Each upload in progress
 * holds its file several times over (the bytes, their base64 and hex forms, the driver's message)
 * until its row is written, and the embedded database writes one at a time: 50 uploads at once
 * held half a gigabyte. An upload past the bound waits before its file is read, so the rest of
 * its body stays in the socket (TCP backpressure) instead of in memory.
 */
export interface UploadSlots {
  acquire(): Promise<() => void>;
}

export function uploadSlots(limit: number): UploadSlots {
  let free = limit;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  return {
    async acquire() {
      if (free > 0) free--;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
      };
    },
  };
}
