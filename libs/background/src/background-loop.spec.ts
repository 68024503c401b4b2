import { Logger } from '@nestjs/common';
import { BackgroundLoop, BackgroundLoopOptions } from './background-loop';

const logger = { warn: jest.fn() } as unknown as Logger;

/** A loop whose runs wait until the test releases them. */
function loopOf(options: Partial<BackgroundLoopOptions> = {}) {
  const releases: (() => void)[] = [];
  let runs = 0;
  const loop = new BackgroundLoop({
    everyMs: 1_000,
    logger,
    failure: 'Pass failed',
    run: () => {
      runs++;
      return new Promise<void>((resolve) => releases.push(resolve));
    },
    ...options,
  });
  return { loop, runs: () => runs, release: () => releases.shift()?.() };
}

/** Lets the promise callbacks of a settled run happen, and a woken run start (it waits a turn). */
const settle = () => jest.advanceTimersByTimeAsync(0);

describe('BackgroundLoop', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs everyMs after each run ends, never two at once', async () => {
    const { loop, runs, release } = loopOf();
    loop.start();
    await jest.advanceTimersByTimeAsync(999);
    expect(runs()).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs()).toBe(1);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(runs()).toBe(1);
    release();
    await settle();
    await jest.advanceTimersByTimeAsync(999);
    expect(runs()).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs()).toBe(2);
    release();
    await loop.stop();
  });

  it('runs when woken, and once more after the run a wake-up finds in progress', async () => {
    const { loop, runs, release } = loopOf();
    loop.start();
    const first = loop.wake();
    await settle();
    expect(runs()).toBe(1);
    const joined = loop.wake();
    void loop.wake();
    release();
    await settle();
    expect(runs()).toBe(2);
    release();
    await Promise.all([first, joined]);
    expect(runs()).toBe(2);
    await loop.stop();
  });

  it('joins the wake-ups of one turn into one run', async () => {
    const { loop, runs, release } = loopOf();
    const woken = [loop.wake(), loop.wake(), loop.wake()];
    await settle();
    expect(runs()).toBe(1);
    release();
    await Promise.all(woken);
    expect(runs()).toBe(1);
    await loop.stop();
  });

  it('skips a run-if-idle while a run is in progress', async () => {
    const { loop, runs, release } = loopOf();
    loop.runIfIdle();
    await settle();
    loop.runIfIdle();
    release();
    await settle();
    expect(runs()).toBe(1);
    await loop.stop();
  });

  it('runs again at once while a run reports work left', async () => {
    let left = 3;
    const loop = new BackgroundLoop({ everyMs: 1_000, logger, failure: 'Pass failed', run: async () => --left > 0 });
    const done = loop.wake();
    await settle();
    await done;
    expect(left).toBe(0);
    await loop.stop();
  });

  it('waits what a run answers before the next one, instead of everyMs', async () => {
    let calls = 0;
    const loop = new BackgroundLoop({
      everyMs: 1_000,
      logger,
      failure: 'Pass failed',
      run: async () => (++calls === 1 ? 5_000 : undefined),
    });
    loop.start(0);
    await settle();
    expect(calls).toBe(1);
    await jest.advanceTimersByTimeAsync(4_999);
    expect(calls).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(3);
    await loop.stop();
  });

  it('moves the next run earlier when work comes due sooner, never later', async () => {
    let calls = 0;
    const loop = new BackgroundLoop({ everyMs: 60_000, logger, failure: 'Pass failed', run: async () => void calls++ });
    loop.start();
    loop.wakeWithin(2_000);
    loop.wakeWithin(30_000);
    await jest.advanceTimersByTimeAsync(1_999);
    expect(calls).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(calls).toBe(1);
    await jest.advanceTimersByTimeAsync(59_999);
    expect(calls).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await loop.stop();
  });

  it('schedules the run after one in progress no later than a wakeWithin asked meanwhile', async () => {
    const { loop, runs, release } = loopOf();
    void loop.wake();
    await settle();
    expect(runs()).toBe(1);
    loop.wakeWithin(300);
    release();
    await settle();
    await jest.advanceTimersByTimeAsync(299);
    expect(runs()).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(runs()).toBe(2);
    release();
    await loop.stop();
  });

  it('logs a failed run and tries again after retryMs', async () => {
    let calls = 0;
    const loop = new BackgroundLoop({
      everyMs: 500,
      retryMs: 2_000,
      logger,
      failure: 'Pass failed',
      run: async () => {
        calls++;
        throw new Error('database away');
      },
    });
    loop.start(0);
    await settle();
    expect(calls).toBe(1);
    expect(logger.warn).toHaveBeenCalledWith({ err: expect.any(Error) }, 'Pass failed');
    await jest.advanceTimersByTimeAsync(1_999);
    expect(calls).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await loop.stop();
  });

  it('stops after the run in progress and runs no more', async () => {
    const { loop, runs, release } = loopOf();
    loop.start();
    void loop.wake();
    await settle();
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    release();
    await stopping;
    await loop.wake();
    loop.runIfIdle();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(runs()).toBe(1);
  });
});
