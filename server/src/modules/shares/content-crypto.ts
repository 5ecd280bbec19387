import crypto from 'node:crypto'

/**
 * Share content at rest: AES-256-GCM with CONTENT_KEY (DESIGN §2). Stored as `v1.<iv>.<tag>.<ciphertext>`
 * (base64url), a fresh 12-byte IV each time; the tag makes tampering fail loudly.
 */
export class ContentCipher {
  private key: Buffer
  constructor(base64Key: string) {
    this.key = Buffer.from(base64Key, 'base64')
    if (this.key.length !== 32) throw new Error('CONTENT_KEY must be 32 bytes, base64-encoded')
  }

  encrypt(plain: string): string {
    const iv = crypto.randomBytes(12)
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv)
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.')
  }

  decrypt(stored: string): string {
    const [v, iv, tag, ct] = stored.split('.')
    if (v !== 'v1' || !iv || !tag || ct === undefined) throw new Error('unknown content format')
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8')
  }
}
