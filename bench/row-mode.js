'use strict';

/**
 * What reading GET /groups' rows as arrays saves (Database.tuples, docs/performance.md, "Sixth
 * pass"): the client's CPU for the list's statement, 100 rows, read as pg's row objects and as
 * arrays mapped with one object literal, in alternating rounds of one process.
 *
 *   node bench/row-mode.js [clean|megamorphic]
 *
 * `megamorphic` (the default) first runs 40 statements of different column lists through the
 * client, as a service running many statements does, so pg's row building has seen many shapes;
 * `clean` skips that, as a bare reference server. Needs the groups scenario's data (run
 * `node bench/run.js groups` once) and a build (dist/: the service's type parsers).
 */

const path = require('node:path');
const { Pool } = require('pg');
const { median } = require('./lib');

const { POOL_TYPES } = require(
  path.join(__dirname, '..', 'dist', 'database', 'typeorm-options.js'),
);

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/checkin_bench';
const ROUNDS = 6;
const QUERIES_PER_ROUND = 1_000;

/** The service's own statement and mapping (src/groups/groups.repository.ts). */
const { LIST_FOR_ENTERPRISE, groupOf } = require(
  path.join(__dirname, '..', 'dist', 'groups', 'groups.repository.js'),
);

/** The client's CPU (µs) per call of `read`, over `count` calls one after another. */
async function cpuPerCall(read, count) {
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) await read();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}

async function main() {
  const megamorphic = process.argv[2] !== 'clean';
  const pool = new Pool({ connectionString: DATABASE_URL, max: 4, types: POOL_TYPES });
  try {
    const { rows } = await pool.query(
      'SELECT enterprise_id FROM groups GROUP BY 1 HAVING count(*) = 100 LIMIT 1',
    );
    if (rows.length === 0) throw new Error('no enterprise with 100 groups: run the groups bench');
    const values = [rows[0].enterprise_id];
    if (megamorphic) {
      for (let shape = 0; shape < 40; shape++) {
        const columns = Array.from(
          { length: 1 + (shape % 9) },
          (_, i) => `${i} AS "c${shape}_${i}"`,
        ).join(', ');
        for (let i = 0; i < 50; i++)
          await pool.query(`SELECT ${columns} FROM generate_series(1, 3)`);
      }
    }
    const asObjects = async () => (await pool.query(LIST_FOR_ENTERPRISE, values)).rows;
    const asArrays = async () =>
      (await pool.query({ text: LIST_FOR_ENTERPRISE, values, rowMode: 'array' })).rows.map(groupOf);
    await cpuPerCall(asObjects, 500); // warm-up, both
    await cpuPerCall(asArrays, 500);
    const objects = [];
    const arrays = [];
    for (let round = 0; round < ROUNDS; round++) {
      objects.push(await cpuPerCall(asObjects, QUERIES_PER_ROUND));
      arrays.push(await cpuPerCall(asArrays, QUERIES_PER_ROUND));
    }
    const rounded = (list) => list.map((micros) => Math.round(micros)).join(', ');
    console.log(
      `${megamorphic ? 'megamorphic' : 'clean'} client, µs of its CPU per 100-row list ` +
        `(median of ${ROUNDS} rounds of ${QUERIES_PER_ROUND}):\n` +
        `  row objects ${median(objects).toFixed(0)} (${rounded(objects)})\n` +
        `  arrays      ${median(arrays).toFixed(0)} (${rounded(arrays)})`,
    );
  } finally {
    await pool.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
