import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../src/database/typeorm-options';
import { startTestApp, TestApp } from './support/test-app';

/**
 * The migrations are the schema; the entities describe it for `npm run migration:generate`. If the
 * two drift apart, generate would emit spurious changes: this fails first.
 */
describe('The migrations match the entities', () => {
  let t: TestApp;
  let dataSource: DataSource;

  beforeAll(async () => {
    t = await startTestApp();
    dataSource = await new DataSource(buildDataSourceOptions(t.config)).initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
    await t.close();
  });

  it('the entities match the migrated database exactly', async () => {
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });

  it('has no pending migrations', async () => {
    expect(await dataSource.showMigrations()).toBe(false);
  });
});
