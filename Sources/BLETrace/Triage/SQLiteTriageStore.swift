import Foundation
import GRDB

/// The embedded store: one SQLite file through GRDB, one connection. While a run writes, the file is in WAL
/// mode (readers never wait for the writer; a killed run loses only the capture it was writing); each
/// capture's rows are one transaction. Several processes may write into one file: SQLite serialises them,
/// and one that waits for another's lock says so after a second (`waiting`) and gives up after a minute.
/// Closing turns the file back into a plain rollback-journal database when no other process has it open,
/// so that no `-wal` or `-shm` file is left and the file alone is the store (copied, mailed, attached, read
/// from a read-only place). `readOnly` (`--report`) never writes and needs no write permission.
public final class SQLiteTriageStore: TriageStore {
    let queue: DatabaseQueue
    let lock: LockWait
    public let path: String
    public let readOnly: Bool

    /// `waiting` is told once a wait for another process' lock has lasted a second.
    public init(path: String, readOnly: Bool = false, waiting: (@Sendable (String) -> Void)? = nil) throws {
        self.path = path
        self.readOnly = readOnly
        let lock = LockWait(notice: waiting)
        self.lock = lock
        var config = Configuration()
        config.busyMode = .callback { tries in lock.busy(tries) }
        config.label = "bletrace-triage"
        config.readonly = readOnly
        if !readOnly {
            config.journalMode = .wal
            config.prepareDatabase { db in
                // Durable at every commit against a killed process (WAL); fsync at checkpoints.
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
        }
        // Turning a rollback-journal file into WAL needs the lock another process may hold, and SQLite does
        // not call the busy handler for it: the open waits for it the same way.
        var tries = 0
        while true {
            do {
                queue = try DatabaseQueue(path: path, configuration: config)
                break
            } catch let e as DatabaseError where e.resultCode == .SQLITE_BUSY && lock.busy(tries) {
                tries += 1
            } catch {
                throw TriageStoreError.cannotOpen("cannot open the SQLite store \(path): \(SQLiteTriageStore.message(error))")
            }
        }
    }

    static func message(_ error: Error) -> String {
        if let e = error as? DatabaseError { return e.message ?? "\(e.resultCode)" }
        if let e = error as? TriageStoreError { return e.description }
        return "\(error)"
    }

    func guarded<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as TriageStoreError {
            throw e
        } catch {
            throw TriageStoreError.failed("\(path): \(what): \(SQLiteTriageStore.message(error))")
        }
    }

    public func prepare(redacted: Bool, check: Bool) throws {
        let missing = try guarded("cannot read the store") {
            try queue.read { db in
                let names = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
                return TriageSchema.tableNames.contains { !names.contains($0) }
            }
        }
        if check && missing {
            try guarded("cannot create the tables") {
                try queue.write { db in
                    for sql in TriageSchema.ddl { try db.execute(sql: sql) }
                    for (k, v) in Self.initialMeta(redacted: redacted) {
                        try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", arguments: [k, v])
                    }
                }
            }
        }
        try Self.check(try meta(), redacted: redacted, check: check, name: path)
    }

    public func meta() throws -> [String: String] {
        try guarded("not a bletrace triage store") { Self.textPairs(try read("SELECT key, value FROM meta")) }
    }

    public func stored() throws -> [String: TriageStoredCapture] {
        try guarded("cannot read the stored captures") { Self.storedCaptures(try read(TriageStoredCapture.select)) }
    }

    public func remove(_ hashes: [String]) throws {
        try guarded("cannot remove stale captures") {
            try queue.write { db in
                for h in hashes { try db.execute(sql: "DELETE FROM captures WHERE sha256 = ?", arguments: [h]) }
            }
        }
    }

    @discardableResult
    public func write(_ record: TriageRecord, replace: Bool) throws -> Bool {
        let rows = record.rows
        let sha = record.capture.sha256, version = record.capture.bletraceVersion
        return try guarded("cannot store \(record.capture.displayName)") {
            try queue.write { db -> Bool in
                if replace {
                    try db.execute(sql: "DELETE FROM captures WHERE sha256 = ?", arguments: [sha])
                } else {
                    try db.execute(sql: "DELETE FROM captures WHERE sha256 = ? AND bletrace_version <> ?", arguments: [sha, version])
                }
                for (i, (table, list)) in rows.enumerated() {
                    var sql = TriageSchema.insert(table, dollar: false)
                    if i == 0 { sql += " ON CONFLICT (sha256) DO NOTHING" }
                    let statement = try db.cachedStatement(sql: sql)
                    for values in list {
                        try statement.execute(arguments: StatementArguments(values.map(SQLiteTriageStore.databaseValue)))
                    }
                    // Another process stored it first: leave its rows alone.
                    if i == 0 && db.changesCount == 0 { return false }
                }
                return true
            }
        }
    }

    public func rows() throws -> [String: [[SQLValue]]] {
        try guarded("cannot read the store") {
            try queue.read { db in
                var out: [String: [[SQLValue]]] = [:]
                for table in TriageSchema.tables {
                    out[table.name] = try Self.valueRows(db, TriageSchema.select(table))
                }
                return out
            }
        }
    }

    /// Leaves WAL mode when no other connection has the file open (which moves everything written into the
    /// main file and deletes `-wal` and `-shm`), else checkpoints what it can; then closes. Neither waits
    /// for another process: the last one to close does the same.
    public func close() {
        if !readOnly {
            lock.closing = true
            queue.writeWithoutTransaction { db in
                do {
                    try db.execute(sql: "PRAGMA journal_mode = DELETE")
                } catch {
                    _ = try? db.checkpoint(.passive)
                }
            }
        }
        try? queue.close()
    }

    /// Holds the write lock (an IMMEDIATE transaction that writes nothing) while `body` runs: what another
    /// process' writer does to this one, for tests.
    func holdingLock(_ body: () -> Void) throws {
        try queue.inTransaction(.immediate) { _ in
            body()
            return .commit
        }
    }

    /// The rows of `sql` as values, in a read of their own.
    func read(_ sql: String) throws -> [[SQLValue]] {
        try queue.read { db in try Self.valueRows(db, sql) }
    }

    /// The rows of `sql` as values, within a read already open.
    static func valueRows(_ db: Database, _ sql: String) throws -> [[SQLValue]] {
        try Row.fetchAll(db, sql: sql).map { row in row.databaseValues.map(SQLiteTriageStore.value) }
    }

    static func value(_ v: DatabaseValue) -> SQLValue {
        switch v.storage {
        case .null: return .null
        case let .int64(i): return .int(i)
        case let .double(d): return .double(d)
        case let .string(s): return .text(s)
        case let .blob(b): return .text(String(decoding: b, as: UTF8.self))
        }
    }

    static func databaseValue(_ v: SQLValue) -> DatabaseValue {
        switch v {
        case .null: return .null
        case let .int(i): return i.databaseValue
        case let .double(d): return d.databaseValue
        case let .text(s): return s.databaseValue
        }
    }
}

/// SQLite's busy handler for the store: sleeps and retries while another process holds the lock, tells
/// `notice` once a wait has lasted a second, gives up after a minute (the statement then fails with
/// "database is locked"), and at once when the store is closing.
final class LockWait: @unchecked Sendable {
    static let tell: UInt64 = 1_000_000_000
    static let limit: UInt64 = 60_000_000_000

    let notice: (@Sendable (String) -> Void)?
    var started: UInt64 = 0
    var told = false
    var closing = false

    init(notice: (@Sendable (String) -> Void)?) { self.notice = notice }

    /// Called by SQLite on the connection's thread with the number of calls before in this wait.
    func busy(_ tries: Int) -> Bool {
        if closing { return false }
        let now = DispatchTime.now().uptimeNanoseconds
        if tries == 0 {
            started = now
            told = false
        }
        let waited = now &- started
        if waited >= LockWait.limit { return false }
        if !told && waited >= LockWait.tell {
            told = true
            notice?("waiting for the store's lock (held by another process)")
        }
        usleep(tries < 10 ? 2_000 : 20_000)
        return true
    }
}
