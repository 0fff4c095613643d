import { connect } from 'node:net';

/**
 * Sends bytes as written to a local port (fetch refuses methods such as TRACE and CONNECT, and
 * writes its own headers) and reads the reply: until one whole reply has come (by its
 * Content-Length), or the other side ends or closes the connection.
 */
export function rawExchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.write(raw));
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1];
      if (end >= 0 && length !== undefined && text.length >= end + 4 + Number(length)) socket.destroy();
    });
    socket.on('end', () => socket.destroy());
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

export interface RawReply {
  status: number;
  /** Lower-cased names. */
  headers: Record<string, string>;
  body: string;
}

/** A reply as rawExchange read it: status, headers and body. */
export function parseRawReply(text: string): RawReply {
  const [headText = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = headText.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}
