import { parseArgs } from 'node:util';
import { parseRequest, registerRequestSchema, type RegisterRequest } from '../shared/api/accounts';
import { AppError } from '../shared/errors';
import { ConfigError, loadConfig } from './config';
import { AccountService } from './features/accounts/service';
import { openMedia } from './media/open';
import { openStore, type Store } from './store/store';

/**
 * `npm run user -- create --username U --email E --password P [--fullname F] [--admin]`
 * Creates an account in the configured store (DATA_DIR or DATABASE_URL), migrating a fresh one first.
 * Prints one line; exits 1 with one line on bad input, a taken name or email, or an unreachable store.
 */
const USAGE = 'usage: npm run user -- create --username U --email E --password P [--fullname F] [--admin]';

async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        username: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        fullname: { type: 'string' },
        admin: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
  const [command, ...rest] = parsed.positionals;
  if (command !== 'create' || rest.length > 0) fail(USAGE);

  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(`configuration error: ${error.message}`);
    throw error;
  }
  const values = parsed.values;
  // the sign-up's own rules; then, only for input that passes them, common and easily guessed passwords
  // (the estimator's word lists take most of a second to load: a mistyped command should not wait)
  const given = { ...values, fullname: values.fullname ?? values.username };
  let input: RegisterRequest;
  try {
    parseRequest(registerRequestSchema(config.passwordRule), given);
    const { estimatePasswordStrength } = await import('../shared/validation/zxcvbn');
    input = parseRequest(registerRequestSchema(config.passwordRule, estimatePasswordStrength), given);
  } catch (error) {
    fail(describe(error));
  }

  let store: Store | undefined;
  try {
    store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    const service = new AccountService(store, {
      passwordRule: config.passwordRule,
      media: await openMedia(config),
    });
    const user = await service.createAccount({ ...input, isAdmin: values.admin });
    process.stdout.write(
      `created ${values.admin ? 'admin ' : ''}user ${user.username} (id ${user.id}) in ${store.location}\n`,
    );
  } catch (error) {
    await store?.close();
    fail(describe(error));
  }
  await store.close();
}

/** `--username: is required.` reads better on a terminal than the API's field name alone. */
function describe(error: unknown): string {
  if (error instanceof AppError) return error.message.replace(/^(\w+):/, '--$1:');
  return error instanceof Error ? error.message.replace(/\s+/g, ' ') : String(error);
}

function fail(message: string): never {
  process.stderr.write(`xpoint user: ${message}\n`);
  process.exit(1);
}

main(process.argv.slice(2)).catch((error: unknown) => fail(describe(error)));
