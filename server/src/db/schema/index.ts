/**
 * The database's tables, one file per area of the API (the module that writes them, decision 119); every
 * enum's values come from contract/. Import tables from here.
 */
export * from './users.ts'
export * from './credentials.ts'
export * from './oauth.ts'
export * from './meta.ts'
export * from './shares.ts'
export * from './channels.ts'
export * from './packages.ts'
export * from './orders.ts'
export * from './statistics.ts'
export * from './withdrawals.ts'
export * from './ledger.ts'
export * from './seller-channels.ts'
export * from './subscriptions.ts'
export * from './moderation.ts'
export * from './audit.ts'
export * from './oversight.ts'
export * from './chat.ts'
export * from './messages.ts'
export * from './links.ts'
export * from './events.ts'
