export { presentUser } from './presenter.ts'
export { findUserById, lockUser, updateUser, type UserRow } from './repository.ts'
export { default as usersModule } from './routes.ts'
export { createAccount, findAccountByAddress, findAccountByLogin, ownLoginRecords, recordLogin, refuseTaken, setPasswordHash, takenByRace, takenConflict } from './service.ts'
