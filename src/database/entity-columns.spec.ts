import { Column, Entity, PrimaryColumn } from 'typeorm';
import { columnsOf } from './entity-columns';

@Entity({ name: 'examples' })
class ExampleEntity {
  @PrimaryColumn({ name: 'example_id', type: 'text' })
  exampleId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

describe('columnsOf', () => {
  it("answers each column under its entity property's name", () => {
    const columns = columnsOf(ExampleEntity, ['exampleId', 'name', 'createdAt']);
    expect(columns.select()).toBe(
      'example_id AS "exampleId", name AS "name", created_at AS "createdAt"',
    );
    expect(columns.select('e')).toBe(
      'e.example_id AS "exampleId", e.name AS "name", e.created_at AS "createdAt"',
    );
    expect(columns.column('createdAt', 'e')).toBe('e.created_at');
  });

  it('refuses a property that is not a column', () => {
    expect(() => columnsOf(ExampleEntity, ['nope' as never])).toThrow(
      'ExampleEntity.nope is not a column',
    );
  });
});
