import type { Binding } from '#contract/oauth.ts'
import type { IdentityRow } from './repository.ts'

export const presentBinding = (r: IdentityRow): Binding => ({ provider: r.provider, nickname: r.nickname, created_at: r.createdAt.toISOString() })
