// Reads the server's first answer to a hand-built ClientHello: a ServerHello (version, suite, compression,
// extension types), an alert, or something else. Pure: bytes in, facts out (RFC 5246 sections 6.2 and 7.4.1.3).

export type ServerReply =
  | { kind: 'incomplete' }
  | { kind: 'server_hello'; version: number; suite: number; compression: number; extensions: number[] }
  | { kind: 'alert'; level: number; description: number }
  | { kind: 'unexpected'; first_byte: number };

const RECORD_HANDSHAKE = 22;
const RECORD_ALERT = 21;
const HANDSHAKE_SERVER_HELLO = 2;

function parseServerHello(body: Buffer): ServerReply {
  if (body.length < 38 || body.length < 38 + body[34]!) return { kind: 'unexpected', first_byte: RECORD_HANDSHAKE };
  const version = body.readUInt16BE(0);
  let at = 35 + body[34]!;
  const suite = body.readUInt16BE(at);
  const compression = body[at + 2]!;
  at += 3;
  const extensions: number[] = [];
  if (at + 2 <= body.length) {
    const end = Math.min(body.length, at + 2 + body.readUInt16BE(at));
    for (at += 2; at + 4 <= end; at += 4 + body.readUInt16BE(at + 2)) extensions.push(body.readUInt16BE(at));
  }
  return { kind: 'server_hello', version, suite, compression, extensions: extensions.sort((a, b) => a - b) };
}

/** Classifies the bytes received so far; `incomplete` means read more. */
export function parseServerReply(bytes: Buffer): ServerReply {
  let handshake = Buffer.alloc(0);
  for (let at = 0; at + 5 <= bytes.length;) {
    const type = bytes[at]!;
    const length = bytes.readUInt16BE(at + 3);
    if (type !== RECORD_HANDSHAKE && type !== RECORD_ALERT) return { kind: 'unexpected', first_byte: type };
    if (at + 5 + length > bytes.length) break;
    const fragment = bytes.subarray(at + 5, at + 5 + length);
    if (type === RECORD_ALERT) {
      if (handshake.length > 0 || fragment.length < 2) return { kind: 'unexpected', first_byte: type };
      return { kind: 'alert', level: fragment[0]!, description: fragment[1]! };
    }
    handshake = Buffer.concat([handshake, fragment]);
    if (handshake.length >= 4) {
      if (handshake[0] !== HANDSHAKE_SERVER_HELLO) return { kind: 'unexpected', first_byte: type };
      const bodyLength = handshake.readUIntBE(1, 3);
      if (handshake.length >= 4 + bodyLength) return parseServerHello(handshake.subarray(4, 4 + bodyLength));
    }
    at += 5 + length;
  }
  if (bytes.length > 0 && bytes[0] !== RECORD_HANDSHAKE && bytes[0] !== RECORD_ALERT)
    return { kind: 'unexpected', first_byte: bytes[0]! };
  return { kind: 'incomplete' };
}
