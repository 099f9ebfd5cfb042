// Where `npm start` keeps its self-signed localhost certificate. Kept apart from the code that makes it so a
// verifier can trust the local service's certificate without loading the X.509 toolkit.
import path from 'node:path';

export const localCertificateFile = (dataDir: string): string => path.join(dataDir, 'tls', 'localhost-cert.pem');
