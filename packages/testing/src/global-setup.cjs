// Jest global setup: drop test databases left behind by crashed runs (older than two hours).
const { Client } = require('pg');

module.exports = async function globalSetup() {
  const client = new Client({
    connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT datname FROM pg_database WHERE datname LIKE 'sptest\\_%'");
    const cutoff = Date.now() / 1000 - 7200;
    for (const { datname } of rows) {
      const born = Number(datname.split('_')[1]);
      if (Number.isFinite(born) && born < cutoff) {
        await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    }
  } finally {
    await client.end();
  }
};
