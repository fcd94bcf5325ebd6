/**
 * What deploy/ ships for monitoring (docs/operations.md, "Alerts" and "Dashboard"), checked with
 * the real tools: Prometheus's `promtool` validates the alert rules, runs their unit tests
 * (deploy/prometheus/alerts.test.yml: each alert firing and not) and the example configuration,
 * and parses every PromQL expression of the Grafana dashboard; the dashboard's structure is
 * checked here; and every metric the rules and the dashboard use is one the processes expose,
 * as scraped from a running API (with its workers) — so renaming a metric breaks this test, not
 * an operator's alerts.
 *
 * promtool is Debian's `prometheus` package (.ci/run installs it). Without it, these tests are
 * skipped with a message on a developer's machine; in CI (CI set) they run, and fail.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { createTestDatabase, dropDatabase } from './support/databases';
import { Scrape } from './support/operations';
import { freePort, serviceEnv, startService } from './support/processes';

const ROOT = join(__dirname, '..');
const ALERTS = join(ROOT, 'deploy', 'prometheus', 'alerts.yml');
const ALERT_TESTS = join(ROOT, 'deploy', 'prometheus', 'alerts.test.yml');
const PROMETHEUS_CONFIG = join(ROOT, 'deploy', 'prometheus', 'prometheus.yml');
const DASHBOARD = join(ROOT, 'deploy', 'grafana', 'checkin.json');
const OPERATIONS_DOC = join(ROOT, 'docs', 'operations.md');

const hasPromtool = spawnSync('promtool', ['--version']).status === 0;
const describeWithPromtool = hasPromtool || process.env.CI ? describe : describe.skip;
if (!hasPromtool && !process.env.CI) {
  console.warn(
    'promtool not found: the checks of deploy/prometheus and of the dashboard’s PromQL are ' +
      'skipped (Debian: apt-get install prometheus; CI runs them).',
  );
}

/** Runs promtool (with `input` on stdin); answers its exit code and output. */
function promtool(...args: string[]): { status: number | null; output: string } {
  return promtoolWithInput('', ...args);
}

function promtoolWithInput(
  input: string,
  ...args: string[]
): { status: number | null; output: string } {
  const result = spawnSync('promtool', args, { encoding: 'utf8', input });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

interface Target {
  refId: string;
  expr: string;
  legendFormat?: string;
  datasource?: { type: string; uid: string };
}

interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  gridPos: { h: number; w: number; x: number; y: number };
  targets?: Target[];
}

interface Dashboard {
  title: string;
  uid: string;
  schemaVersion: number;
  templating: { list: { name: string; type: string; query: string }[] };
  panels: Panel[];
}

const alertRules = (): AlertRule[] =>
  (load(readFileSync(ALERTS, 'utf8')) as { groups: { rules: AlertRule[] }[] }).groups.flatMap(
    (group) => group.rules,
  );
const dashboard = (): Dashboard => JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
const dashboardTargets = (): Target[] => dashboard().panels.flatMap((panel) => panel.targets ?? []);

/** Grafana's interval variables, as Prometheus would receive them. */
const withIntervals = (expr: string): string =>
  expr.replace(/\$__rate_interval|\$__interval|\$__range/g, '5m');

const PROMQL_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/**
 * The metric names an expression reads: identifiers that are not functions or aggregations
 * (followed by `(`), keywords, label names (inside `{…}` or `by (…)`), strings or durations.
 */
function metricNames(expr: string): string[] {
  const bare = withIntervals(expr)
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '')
    .replace(/\[[^\]]*\]/g, '');
  const names = new Set<string>();
  for (const match of bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const after = bare.slice((match.index ?? 0) + match[0].length).trimStart();
    if (after.startsWith('(') || PROMQL_WORDS.has(match[0].toLowerCase())) continue;
    names.add(match[0]);
  }
  return [...names];
}

describe('metricNames (this test’s PromQL reader)', () => {
  it('finds the metrics of an expression, not its functions, keywords, labels or durations', () => {
    expect(
      metricNames(
        'histogram_quantile(0.95, sum by (le, route) (rate(http_server_request_duration_seconds_bucket{status_code=~"5.."}[$__rate_interval]))) / on (job) group_left up and checkin_ready == bool 0',
      ).sort(),
    ).toEqual(['checkin_ready', 'http_server_request_duration_seconds_bucket', 'up']);
  });
});

describe('the alert rules (deploy/prometheus/alerts.yml)', () => {
  it('say how severe each alert is, what it means and where the runbook is in docs/operations.md', () => {
    const headings = new Set(
      [...readFileSync(OPERATIONS_DOC, 'utf8').matchAll(/^#+ (.+)$/gm)].map(([, heading]) =>
        heading
          .toLowerCase()
          .replace(/[^a-z0-9 -]/g, '')
          .replace(/ /g, '-'),
      ),
    );
    const rules = alertRules();
    expect(rules.map((rule) => rule.alert)).toEqual([
      'CheckinProcessDown',
      'CheckinProcessNotReady',
      'CheckinDeliveriesBehind',
      'CheckinDeliveryFailureRatioHigh',
      'CheckinEmailBacklog',
      'CheckinMetricReleaseLag',
    ]);
    for (const rule of rules) {
      expect(rule.for).toMatch(/^\d+m$/);
      expect(['critical', 'warning']).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary).toBeTruthy();
      expect(rule.annotations?.description).toBeTruthy();
      expect(rule.annotations?.runbook).toBe(`docs/operations.md#${rule.alert.toLowerCase()}`);
      expect(headings).toContain(rule.alert.toLowerCase());
    }
  });

  describeWithPromtool('with promtool', () => {
    it('are valid rules (promtool check rules)', () => {
      const checked = promtool('check', 'rules', ALERTS);
      expect(checked.output).toContain('SUCCESS: 6 rules found');
      expect(checked.status).toBe(0);
    });

    it('fire and stay quiet as their unit tests say (promtool test rules)', () => {
      const tested = promtool('test', 'rules', ALERT_TESTS);
      expect(tested.output).toContain('SUCCESS');
      expect(tested.status).toBe(0);
    });

    it('the example configuration is valid and loads them (promtool check config)', () => {
      const checked = promtool('check', 'config', PROMETHEUS_CONFIG);
      expect(checked.output).toContain('SUCCESS: 1 rule files found');
      expect(checked.status).toBe(0);
    });
  });
});

describe('the Grafana dashboard (deploy/grafana/checkin.json)', () => {
  it('has panels with unique ids on a grid, each reading the dashboard’s Prometheus variable', () => {
    const board = dashboard();
    expect(board).toMatchObject({ title: 'Check-in Integration Service', uid: 'checkin-service' });
    expect(board.templating.list).toContainEqual(
      expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' }),
    );
    const ids = board.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    const graphs = board.panels.filter((panel) => panel.type !== 'row');
    expect(graphs.length).toBeGreaterThanOrEqual(20);
    for (const panel of graphs) {
      expect(['timeseries', 'stat']).toContain(panel.type);
      expect(panel.title).toBeTruthy();
      expect(panel.gridPos.w).toBeGreaterThan(0);
      expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
      expect(panel.datasource).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(panel.targets?.length).toBeGreaterThan(0);
      const refIds = (panel.targets ?? []).map((target) => target.refId);
      expect(new Set(refIds).size).toBe(refIds.length);
      for (const target of panel.targets ?? []) {
        expect(target.datasource).toEqual(panel.datasource);
        expect(target.expr).toBeTruthy();
      }
    }
    // No two panels overlap.
    const cells = new Set<string>();
    for (const { gridPos } of board.panels) {
      for (let x = gridPos.x; x < gridPos.x + gridPos.w; x++) {
        for (let y = gridPos.y; y < gridPos.y + gridPos.h; y++) {
          expect(cells.has(`${x},${y}`)).toBe(false);
          cells.add(`${x},${y}`);
        }
      }
    }
  });

  describeWithPromtool('with promtool', () => {
    let dir: string;
    beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'checkin-dashboard-'))));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('every expression is valid PromQL (each as a recording rule, promtool check rules)', () => {
      const targets = dashboardTargets();
      const rules = targets.map(
        (target, index) =>
          `      - record: dashboard:expression_${index}\n        expr: ${JSON.stringify(withIntervals(target.expr))}\n`,
      );
      const file = join(dir, 'dashboard-rules.yml');
      writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${rules.join('')}`);
      const checked = promtool('check', 'rules', file);
      expect(checked.output).toContain(`SUCCESS: ${targets.length} rules found`);
      expect(checked.status).toBe(0);
    });

    it('an invalid expression would be refused (the check can fail)', () => {
      const file = join(dir, 'broken-rules.yml');
      writeFileSync(
        file,
        'groups:\n  - name: broken\n    rules:\n      - record: broken\n        expr: "sum by (route (rate(x[5m]))"\n',
      );
      expect(promtool('check', 'rules', file).status).not.toBe(0);
    });
  });
});

describe('the metrics the processes expose, and those the rules and the dashboard use', () => {
  let exposed: Set<string>;
  let exposition: string;

  beforeAll(async () => {
    // An API with its workers exposes every figure of both processes (docs/operations.md).
    const databaseName = await createTestDatabase();
    const opsPort = await freePort();
    const api = await startService(
      serviceEnv(databaseName, { RUN_WORKERS: 'true', OPS_PORT: String(opsPort) }),
      await freePort(),
    );
    try {
      const scrape = await Scrape.of(opsPort);
      exposition = scrape.text;
      exposed = new Set([...scrape.families(), ...scrape.samples.map((sample) => sample.name)]);
    } finally {
      await api.stop();
      await dropDatabase(databaseName);
    }
    // Prometheus's own series for every target.
    exposed.add('up');
  }, 60_000);

  describeWithPromtool('with promtool', () => {
    it('follow Prometheus naming (promtool check metrics): only prom-client’s own defaults do not', () => {
      const linted = promtoolWithInput(exposition, 'check', 'metrics');
      const problems = linted.output.split('\n').filter((line) => line.trim() !== '');
      // prom-client names three gauges `…_total`; the service's own figures have no finding.
      expect(problems.sort()).toEqual([
        'nodejs_active_handles_total non-counter metrics should not have "_total" suffix',
        'nodejs_active_requests_total non-counter metrics should not have "_total" suffix',
        'nodejs_active_resources_total non-counter metrics should not have "_total" suffix',
      ]);
    });
  });

  it('the rules and the dashboard use only metrics the processes expose', () => {
    const used = [
      ...alertRules().map((rule) => rule.expr),
      ...dashboardTargets().map((target) => target.expr),
    ].flatMap(metricNames);
    expect(used.length).toBeGreaterThan(20);
    expect([...new Set(used)].filter((name) => !exposed.has(name))).toEqual([]);
  });
});
