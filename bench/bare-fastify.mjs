// The HTTP ceiling for /api/search: a bare Fastify route that answers each question of the bench
// with the bytes the real server sent for it, and nothing else (no hooks, no validation, no store).
// Started with the same node flags as npm start; REPLIES_FILE holds { question: replyText }.
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';

const replies = new Map(Object.entries(JSON.parse(readFileSync(process.env.REPLIES_FILE, 'utf8'))));
const app = Fastify();
app.post('/api/search', (request, reply) => {
  reply.type('application/json; charset=utf-8').send(replies.get(request.body.query) ?? '[]');
});
app.get('/api/health', () => ({ status: 'ok' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
