import { dropDatabase, templateDatabase } from './databases';

/** Once per run: this run's template goes (each file drops its own database). */
export default async function globalTeardown(): Promise<void> {
  await dropDatabase(templateDatabase());
}
