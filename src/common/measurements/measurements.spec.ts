import { Counter } from 'prom-client';
import { Measurements, scrapeReading } from './measurements';

describe('Measurements', () => {
  it('has a registry of its own per application; a name registered twice is the same figure', async () => {
    const one = new Measurements();
    const other = new Measurements();
    const config = { name: 'checkin_things_total', help: 'Things.' };
    const counter = one.counter(config);
    expect(one.counter(config)).toBe(counter);
    expect(other.counter(config)).not.toBe(counter);
    counter.inc(2);
    expect(await one.registry.metrics()).toContain('checkin_things_total 2');
    expect(await other.registry.metrics()).toContain('checkin_things_total 0');
    expect(() => one.gauge(config)).toThrow('checkin_things_total is registered as another kind');
    expect(counter).toBeInstanceOf(Counter);
  });
});

describe('scrapeReading', () => {
  afterEach(() => jest.useRealTimers());

  it('gives every gauge of one scrape the same read, and reads again at the next scrape', async () => {
    let reads = 0;
    const read = scrapeReading(() => Promise.resolve(++reads));
    expect(await Promise.all([read(), read(), read()])).toEqual([1, 1, 1]);
    expect(await read()).toBe(2);
  });

  it('answers null for a read that fails or takes longer than the timeout', async () => {
    expect(await scrapeReading(() => Promise.reject(new Error('ECONNREFUSED')))()).toBeNull();
    jest.useFakeTimers();
    const slow = scrapeReading(() => new Promise<number>(() => undefined), 3_000)();
    jest.advanceTimersByTime(3_000);
    expect(await slow).toBeNull();
  });
});
