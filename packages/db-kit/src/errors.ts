const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  '57P01',
  '57P03',
  '53300',
  // query_canceled: statement_timeout (or an operator's pg_cancel_backend) stopped the statement.
  '57014',
]);

/** pg's own deadline (`query_timeout`) passed before the server answered. */
export function isQueryTimeout(err: unknown): boolean {
  return (
    typeof err === 'object' && err !== null && (err as { message?: unknown }).message === 'Query read timeout'
  );
}

/**
 * True when the error means the database cannot be reached or did not answer in time (as opposed
 * to a bad query): the caller answers 503, not 500. A statement stopped by `statement_timeout` or
 * by our `query_timeout` counts: both mean an overloaded or frozen database, not a bug.
 * So does "… is not queryable", pg's answer to a statement sent on a connection that already failed
 * (e.g. the rollback of a transaction whose connection died inside it).
 * Duck-typed: errors from Node's core may come from another realm.
 */
export function isConnectionError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message, errors } = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  if (Array.isArray(errors) && errors.some(isConnectionError)) return true;
  return (
    typeof message === 'string' &&
    /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|Query read timeout|is not queryable/i.test(
      message,
    )
  );
}
