import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { EnterprisesService, SANDBOX_NOTE } from './enterprises.service';

export const DEMO_ENTERPRISE_NAME = 'Demo Enterprise';

/**
 * Outside production (DEMO_BOOTSTRAP, default on in development), an empty database gets a demo
 * enterprise so `npm start` is immediately usable. Its API key is printed once, to stdout only.
 * It is a sandbox (docs/integrating.md): a newcomer can complete sessions without the analysis engine, and
 * its mails are captured (`GET /sandbox/emails`), never sent.
 */
@Injectable()
export class DemoBootstrap {
  constructor(
    private readonly enterprises: EnterprisesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async runOnEmptyDatabase(): Promise<void> {
    const created = await this.enterprises.createIfNoneExist(DEMO_ENTERPRISE_NAME, {
      sandbox: true,
    });
    if (!created) {
      // A later start: the key was shown at the first one only. Say how to get another.
      const demo = await this.enterprises.sandboxNamed(DEMO_ENTERPRISE_NAME);
      if (demo) {
        process.stdout.write(
          `\nThe sandbox enterprise "${DEMO_ENTERPRISE_NAME}" (${demo}) was created at the first ` +
            `start; its API key was shown then only. Lost it? ` +
            `npm run cli:dev -- api-keys:create --enterprise ${demo}\n\n`,
        );
      }
      return;
    }
    process.stdout.write(
      [
        '',
        `Created the sandbox enterprise "${created.name}" (${created.enterpriseId}).`,
        SANDBOX_NOTE,
        `Its API key, shown only this once: ${created.apiKey}`,
        `Swagger UI: ${this.config.publicBaseUrl}/docs`,
        `The whole flow, with the typed client: ${quickstartCommand(this.config.publicBaseUrl, created.apiKey)}`,
        '',
      ].join('\n') + '\n',
    );
  }
}

/** Where clients/typescript/examples/quickstart.ts looks without CHECKIN_BASE_URL. */
const QUICKSTART_DEFAULT_URL = 'http://localhost:3000';

/** `npm run quickstart` with this service's key (and address, when it is not the default one). */
export function quickstartCommand(publicBaseUrl: string, apiKey: string): string {
  const address =
    publicBaseUrl === QUICKSTART_DEFAULT_URL ? '' : `CHECKIN_BASE_URL=${publicBaseUrl} `;
  return `${address}CHECKIN_API_KEY=${apiKey} npm run quickstart`;
}
