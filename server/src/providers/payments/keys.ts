import crypto, { type KeyObject } from 'node:crypto'

// Gateways hand out keys in several shapes: Alipay's console shows bare base64 (PKCS#8 for Java,
// PKCS#1 otherwise; the Alipay public key as SPKI), WeChat Pay gives apiclient_key.pem (PKCS#8) and
// a public key PEM or a platform certificate. Everything is normalised to a KeyObject here, so a bad
// key stops the process at start-up instead of failing the first payment.

const bare = (text: string) => text.replace(/\s+/g, '')

function looksPem(text: string) {
  return text.includes('-----BEGIN ')
}

/** An RSA private key from PEM (PKCS#1 or PKCS#8) or bare base64 DER (PKCS#8 or PKCS#1). */
export function rsaPrivateKey(text: string, label: string): KeyObject {
  const attempts: (() => KeyObject)[] = looksPem(text)
    ? [() => crypto.createPrivateKey(text.trim())]
    : [
        () => crypto.createPrivateKey({ key: Buffer.from(bare(text), 'base64'), format: 'der', type: 'pkcs8' }),
        () => crypto.createPrivateKey({ key: Buffer.from(bare(text), 'base64'), format: 'der', type: 'pkcs1' }),
      ]
  for (const attempt of attempts) {
    try {
      const key = attempt()
      if (key.asymmetricKeyType === 'rsa') return key
    } catch {
      // try the next encoding
    }
  }
  throw new Error(`${label} is not an RSA private key (PEM, or base64 PKCS#8/PKCS#1)`)
}

/** An RSA public key from PEM (SPKI, PKCS#1 or an X.509 certificate) or bare base64 SPKI/PKCS#1 DER. */
export function rsaPublicKey(text: string, label: string): KeyObject {
  const attempts: (() => KeyObject)[] = looksPem(text)
    ? [() => crypto.createPublicKey(text.trim())]
    : [
        () => crypto.createPublicKey({ key: Buffer.from(bare(text), 'base64'), format: 'der', type: 'spki' }),
        () => crypto.createPublicKey({ key: Buffer.from(bare(text), 'base64'), format: 'der', type: 'pkcs1' }),
      ]
  for (const attempt of attempts) {
    try {
      const key = attempt()
      if (key.asymmetricKeyType === 'rsa') return key
    } catch {
      // try the next encoding
    }
  }
  throw new Error(`${label} is not an RSA public key (PEM, certificate, or base64 SPKI)`)
}
