import Foundation
import GRDB

/// The embedded store: one SQLite file through GRDB, in WAL mode (readers never wait for the writer; a
/// killed run loses only the capture it was writing). Each capture's rows are one transaction. Several
/// processes may write into one file: SQLite serialises them (each waits up to a minute for the lock).
public final class SQLiteTriageStore: TriageStore {
    let pool: DatabasePool
    public let path: String

    public init(path: String) throws {
        self.path = path
        var config = Configuration()
        config.busyMode = .timeout(60)
        config.label = "bletrace-triage"
        config.prepareDatabase { db in
            // Durable at every commit against a killed process (WAL); fsync at checkpoints.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            pool = try DatabasePool(path: path, configuration: config)
        } catch {
            throw TriageStoreError.cannotOpen("cannot open the SQLite store \(path): \(SQLiteTriageStore.message(error))")
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
        if check {
            try guarded("cannot create the tables") {
                try pool.write { db in
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

    public func storedVersions() throws -> [String: String] {
        try guarded("cannot read the stored captures") {
            Self.textPairs(try read("SELECT sha256, bletrace_version FROM captures"))
        }
    }

    @discardableResult
    public func write(_ record: TriageRecord, replace: Bool) throws -> Bool {
        let rows = record.rows
        let sha = record.capture.sha256, version = record.capture.bletraceVersion
        return try guarded("cannot store \(record.capture.displayName)") {
            try pool.write { db -> Bool in
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
            try pool.read { db in
                var out: [String: [[SQLValue]]] = [:]
                for table in TriageSchema.tables {
                    out[table.name] = try Self.valueRows(db, TriageSchema.select(table))
                }
                return out
            }
        }
    }

    /// Moves everything written into the main file (the WAL emptied), so that the .sqlite file alone holds the
    /// store (copied, mailed, attached), then closes. GRDB's readers are read-only connections, which cannot
    /// checkpoint when they are the last to close.
    public func close() {
        _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try? pool.close()
    }

    /// The rows of `sql` as values, in a read of their own.
    func read(_ sql: String) throws -> [[SQLValue]] {
        try pool.read { db in try Self.valueRows(db, sql) }
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
