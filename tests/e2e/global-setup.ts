// Runs once the web server answers: signs up the users whose addresses the password-reset tests use,
// so that the one-code-a-minute limit has run out (or nearly) by the time those tests run.
import fs from 'node:fs'
import { agedUserKey, type AgedUsers, Api, type TestUser } from './api.ts'
import { AGED_USERS_FILE } from './env.ts'

export default async function globalSetup() {
  const api = new Api('10.254.0.1')
  await api.adminToken()
  const users: Record<string, TestUser> = {}
  for (const project of ['js-on', 'js-off']) {
    for (const kind of ['email', 'phone'] as const) users[agedUserKey(project, kind)] = await api.createUser(kind, 'fgt')
  }
  const aged: AgedUsers = { signedUpAt: Date.now(), users }
  fs.writeFileSync(AGED_USERS_FILE, JSON.stringify(aged, null, 2))
}
