import { readFileSync } from 'node:fs';
import { publicKeyTxtRecords } from './domain-connect';

/**
 * Prints the TXT records that publish the Domain Connect public key:
 * `node dist/libs/connect/src/domain-connect-keys.main.js <private-key.pem> <syncPubKeyDomain> [keyHost]`.
 */
function main(argv: string[]): number {
  const [keyFile, pubKeyDomain, keyHost = process.env.DOMAIN_CONNECT_KEY_HOST ?? '_dcpubkeyv1'] = argv;
  if (!keyFile || !pubKeyDomain) {
    process.stderr.write('usage: domain-connect-keys <private-key.pem> <syncPubKeyDomain> [keyHost]\n');
    return 2;
  }
  const records = publicKeyTxtRecords(readFileSync(keyFile, 'utf8'));
  const name = `${keyHost}.${pubKeyDomain.replace(/\.$/, '')}.`;
  for (const record of records) process.stdout.write(`${name} 3600 IN TXT "${record}"\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
