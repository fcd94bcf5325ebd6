/**
 * What `npm run build` leaves in dist/ besides compiled TypeScript: the page and mail templates and
 * the stylesheet (scripts/build-app.js), at the same relative path, since the code finds them
 * next to itself. Run after a build, as `npm test` does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesIn } from '../src/common/templates/template-folder';

const ROOT = join(__dirname, '..');

describe('the build', () => {
  it('copies every file of src/ that is not TypeScript into dist/, unchanged', () => {
    const assets = filesIn(join(ROOT, 'src')).filter((file) => !file.endsWith('.ts'));
    expect(assets).toEqual(
      expect.arrayContaining(['pages/templates/style.css', 'pages/templates/checkin.eta']),
    );
    const differing = assets.filter((file) => {
      const built = join(ROOT, 'dist', file);
      return (
        !existsSync(built) || !readFileSync(built).equals(readFileSync(join(ROOT, 'src', file)))
      );
    });
    expect(differing).toEqual([]);
  });
});
