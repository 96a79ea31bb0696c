import { createServer } from 'node:http';

// Ceiling: a bare node:http JSON hello world.
const body = JSON.stringify({ hello: 'world' });
createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
