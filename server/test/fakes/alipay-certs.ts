// Alipay's public-key certificate mode (公钥证书, research/INTEGRATIONS.md §1.3: mandatory for fund
// transfers) for the fake gateway: a root CA standing in for Ant Financial's, the app certificate it
// issues for the merchant's app key and the "Alipay public key certificate" for the gateway's own key.
// Node can read certificates but not make them, so the openssl command line (Debian's `openssl`) signs
// them, once per fake.
import { execFileSync } from 'node:child_process'
import crypto, { type KeyObject } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export type AlipayCertificates = {
  /** The merchant's app certificate (appCertPublicKey_<appid>.crt). */
  appCert: string
  /** The gateway's public key certificate (alipayCertPublicKey_RSA2.crt). */
  alipayPublicCert: string
  /** The root chain (alipayRootCert.crt): an RSA root and, as in Alipay's file, a non-RSA one. */
  alipayRootCert: string
}

const pem = (key: KeyObject, kind: 'private' | 'public') =>
  kind === 'private' ? key.export({ type: 'pkcs8', format: 'pem' }).toString() : key.export({ type: 'spki', format: 'pem' }).toString()

/** Makes the three certificates for the two key pairs (openssl; a few hundred milliseconds). */
export function issueAlipayCertificates(appKeys: { privateKey: KeyObject; publicKey: KeyObject }, alipayKeys: { privateKey: KeyObject; publicKey: KeyObject }): AlipayCertificates {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alipay-fake-certs-'))
  const file = (name: string, text?: string) => {
    const p = path.join(dir, name)
    if (text !== undefined) fs.writeFileSync(p, text, { mode: 0o600 })
    return p
  }
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'pipe', 'pipe'] })
  try {
    const root = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
    file('root.key', pem(root.privateKey, 'private'))
    openssl('req', '-x509', '-new', '-key', file('root.key'), '-sha256', '-days', '3650', '-subj', '/C=CN/O=Ant Financial Fake/OU=Certification Authority/CN=Ant Financial Fake Certification Authority R1', '-out', file('root.crt'))
    // Alipay's root file also holds an SM2 (here: EC) root, which serial-number rules skip.
    const ec = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    file('ec.key', pem(ec.privateKey, 'private'))
    openssl('req', '-x509', '-new', '-key', file('ec.key'), '-sha256', '-days', '3650', '-subj', '/C=CN/O=Ant Financial Fake/OU=Certification Authority/CN=Ant Financial Fake Certification Authority E1', '-out', file('ec.crt'))
    const leaf = (name: string, publicKey: KeyObject, subject: string, serial: string) => {
      // A CSR needs the subject's private key; openssl x509 -force_pubkey puts the real public key in.
      const throwaway = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
      file(`${name}.tmp.key`, pem(throwaway.privateKey, 'private'))
      file(`${name}.pub`, pem(publicKey, 'public'))
      openssl('req', '-new', '-key', file(`${name}.tmp.key`), '-subj', subject, '-out', file(`${name}.csr`))
      openssl('x509', '-req', '-in', file(`${name}.csr`), '-CA', file('root.crt'), '-CAkey', file('root.key'), '-set_serial', serial, '-days', '825', '-sha256', '-force_pubkey', file(`${name}.pub`), '-out', file(`${name}.crt`))
      return fs.readFileSync(file(`${name}.crt`), 'utf8')
    }
    const serial = () => `0x${crypto.randomBytes(8).toString('hex').replace(/^0/, '1')}`
    return {
      appCert: leaf('app', appKeys.publicKey, '/C=CN/O=PayShare Test/OU=Alipay/CN=2021000149600001', serial()),
      alipayPublicCert: leaf('alipay', alipayKeys.publicKey, '/C=CN/O=Alipay Fake/OU=Alipay/CN=Alipay Public Key RSA2', serial()),
      alipayRootCert: fs.readFileSync(file('root.crt'), 'utf8') + fs.readFileSync(file('ec.crt'), 'utf8'),
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * A certificate's serial number as Alipay computes it (`app_cert_sn`, `alipay_cert_sn`): the MD5 hex of
 * the issuer's attributes, last first, joined `k=v` by commas, followed by the serial in decimal.
 * Written from the rule, not from the SDK, so the fake checks what the SDK sends.
 */
export function alipayCertSn(certPem: string): string {
  const cert = new crypto.X509Certificate(certPem)
  const issuer = cert.issuer.split('\n').reverse().join(',')
  return crypto.createHash('md5').update(issuer + BigInt(`0x${cert.serialNumber}`).toString(10), 'utf8').digest('hex')
}

/** The root chain's serial (`alipay_root_cert_sn`): the SNs of its RSA certificates joined by `_`. */
export function alipayRootCertSn(chainPem: string): string {
  const certs = chainPem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
  return certs
    .filter((c) => new crypto.X509Certificate(c).publicKey.asymmetricKeyType === 'rsa')
    .map(alipayCertSn)
    .join('_')
}
