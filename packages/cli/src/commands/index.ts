import type { Command } from '../io.ts';
import { audit } from './audit.ts';
import { expire } from './expire.ts';
import { get } from './get.ts';
import { list } from './list.ts';
import { login } from './login.ts';
import { notify } from './notify.ts';
import { preview } from './preview.ts';
import { push } from './push.ts';
import { request } from './request.ts';
import { respond } from './respond.ts';
import { token } from './token.ts';
import { version } from './version.ts';
import { webhooks } from './webhooks.ts';

/** Every command by its name on the command line (a new command is one module and one line here). */
export const COMMANDS: Record<string, Command> = {
  push,
  get,
  preview,
  expire,
  notify,
  list,
  audit,
  webhooks,
  request,
  respond,
  token,
  login,
  version,
};
