import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: ROOT });

/** The layer rule's messages for `code` written at `file` (a path from the repository). */
async function refusals(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('the client’s layers, as lint enforces them (docs/client.md)', () => {
  it('refuses a feature that imports the app, and lets the app load a feature’s page by its own file', async () => {
    const messages = await refusals('src/features/search/x.ts', "import { App } from '../../app/App.tsx';\nexport { App };\n");
    expect(messages).toEqual([expect.stringContaining('A feature never imports the app')]);
    const page = "export const page = () => import('../features/insights/components/InsightsPage.tsx');\n";
    expect(await refusals('src/app/x.ts', page)).toEqual([]);
  });

  it('refuses a feature that reaches into another feature’s files, and lets it use that feature’s index.ts', async () => {
    expect(await refusals('src/features/search/x.ts', "import { useSession } from '../session/session-store.ts';\nexport { useSession };\n")).toEqual([
      expect.stringContaining('src/features/session/index.ts'),
    ]);
    expect(await refusals('src/features/search/x.ts', "import { useSession } from '../session/index.ts';\nexport { useSession };\n")).toEqual([]);
  });

  it('refuses shared code that imports a feature or the app', async () => {
    expect(await refusals('src/lib/x.ts', "import { useSession } from '../features/session/index.ts';\nexport { useSession };\n")).toEqual([
      expect.stringContaining('Shared code'),
    ]);
    expect(await refusals('src/components/X.tsx', "import { App } from '../app/App.tsx';\nexport { App };\n")).toEqual([
      expect.stringContaining('Shared code'),
    ]);
  });
});
