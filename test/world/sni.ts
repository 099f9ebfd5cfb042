// The server name (SNI, RFC 6066 section 3) of a TLS ClientHello, read from the first bytes a client sends, so
// one listener can hand each connection to the site the client asked for before any TLS state exists.

export type ClientHelloRead =
  { kind: 'incomplete' } | { kind: 'not-tls' } | { kind: 'hello'; serverName: string | null };

const HANDSHAKE_RECORD = 22;
const CLIENT_HELLO = 1;
const SERVER_NAME_EXTENSION = 0;
const HOST_NAME = 0;

/** Reads the ClientHello in the first TLS record (clients send it whole; a fragmented one reads as no name). */
export function readClientHello(data: Buffer): ClientHelloRead {
  if (data.length < 5) return { kind: 'incomplete' };
  if (data[0] !== HANDSHAKE_RECORD || data[1] !== 3) return { kind: 'not-tls' };
  const recordEnd = 5 + data.readUInt16BE(3);
  if (data.length < recordEnd) return { kind: 'incomplete' };
  const hello = data.subarray(5, recordEnd);
  if (hello[0] !== CLIENT_HELLO) return { kind: 'not-tls' };
  try {
    return { kind: 'hello', serverName: serverNameIn(hello) };
  } catch {
    return { kind: 'hello', serverName: null };
  }
}

function serverNameIn(hello: Buffer): string | null {
  // handshake type (1), length (3), client_version (2), random (32)
  let at = 38;
  at += 1 + hello.readUInt8(at); // session_id
  at += 2 + hello.readUInt16BE(at); // cipher_suites
  at += 1 + hello.readUInt8(at); // compression_methods
  if (at + 2 > hello.length) return null;
  const end = Math.min(hello.length, at + 2 + hello.readUInt16BE(at));
  at += 2;
  while (at + 4 <= end) {
    const type = hello.readUInt16BE(at);
    const length = hello.readUInt16BE(at + 2);
    const body = hello.subarray(at + 4, at + 4 + length);
    at += 4 + length;
    if (type !== SERVER_NAME_EXTENSION) continue;
    // server_name_list (2), then entries: name_type (1), length (2), name
    for (let i = 2; i + 3 <= body.length;) {
      const nameType = body.readUInt8(i);
      const nameLength = body.readUInt16BE(i + 1);
      if (nameType === HOST_NAME)
        return body
          .subarray(i + 3, i + 3 + nameLength)
          .toString('ascii')
          .toLowerCase();
      i += 3 + nameLength;
    }
  }
  return null;
}
