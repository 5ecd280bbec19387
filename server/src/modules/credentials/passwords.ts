import { hash, verify } from '@node-rs/argon2'

// argon2id with OWASP's minimum profile (m=19 MiB, t=2, p=1): ~75 ms here (research/INTEGRATIONS.md).
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const

export const hashPassword = (password: string) => hash(password, OPTIONS)

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password)
  } catch {
    return false
  }
}

/** A hash to verify against when the account does not exist, so timing does not tell. */
let dummyHash: Promise<string> | undefined
export const dummyPasswordHash = () => (dummyHash ??= hashPassword('Dummy-password-1'))
