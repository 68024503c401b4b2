import { Mailbox } from './mailbox';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Mailbox', () => {
  it('runs tasks one at a time in arrival order, whatever their durations', async () => {
    const mailbox = new Mailbox();
    const log: string[] = [];
    let running = 0;
    const task = (name: string, ms: number) => async () => {
      running++;
      expect(running).toBe(1);
      log.push(`start ${name}`);
      await sleep(ms);
      log.push(`end ${name}`);
      running--;
      return name;
    };
    const results = await Promise.all([
      mailbox.run(task('a', 20)),
      mailbox.run(task('b', 1)),
      mailbox.run(task('c', 5)),
    ]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('keeps going after a failed task and reports depth', async () => {
    const mailbox = new Mailbox();
    const failed = mailbox.run(async () => {
      await sleep(5);
      throw new Error('boom');
    });
    const next = mailbox.run(async () => 'next');
    expect(mailbox.depth).toBe(2);
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
    await mailbox.idle();
    expect(mailbox.depth).toBe(0);
  });
});
