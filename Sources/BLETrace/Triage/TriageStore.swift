import Foundation

/// Why a store cannot be used: the CLI prints it on one line and exits with status 2.
public enum TriageStoreError: Error, Equatable, CustomStringConvertible {
    case cannotOpen(String)
    case badSchema(String)
    case badValue(String)
    case failed(String)

    public var description: String {
        switch self {
        case let .cannotOpen(s): return s
        case let .badSchema(s): return s
        case let .badValue(s): return "the store holds an unexpected value: " + s
        case let .failed(s): return s
        }
    }
}

/// Where `bletrace triage` keeps what it found: an embedded SQLite file (`SQLiteTriageStore`) or a PostgreSQL
/// server (`PostgresTriageStore`), with the same tables (`TriageSchema`). One writer per process; several
/// processes may write into one store at once (captures are keyed by content hash; the first stored wins).
public protocol TriageStore: AnyObject {
    /// Creates the tables when one is missing (only then: a role that may use the tables but not create
    /// them can triage) and checks the store's schema version and redaction (a store is all redacted or all
    /// plain). `check` false (`--report`) creates nothing and only checks the version.
    func prepare(redacted: Bool, check: Bool) throws
    /// What is stored of each capture, by content hash.
    func stored() throws -> [String: TriageStoredCapture]
    /// Deletes these captures and their rows, in one transaction.
    func remove(_ hashes: [String]) throws
    /// Writes one capture's rows in one transaction. A capture already stored with another bletrace version,
    /// or any when `replace`, is replaced (its rows first deleted, children by cascade); otherwise a capture
    /// another writer stored meanwhile is left alone and the result is false.
    @discardableResult
    func write(_ record: TriageRecord, replace: Bool) throws -> Bool
    /// Every table's rows in key order (`TriageSchema.select`).
    func rows() throws -> [String: [[SQLValue]]]
    /// The `meta` table.
    func meta() throws -> [String: String]
    func close()
}

/// What a store holds of one capture to decide whether a run analyses it again.
public struct TriageStoredCapture: Sendable, Equatable {
    public var path: String
    public var status: TriageStatus
    public var bletraceVersion: String

    public init(path: String, status: TriageStatus, bletraceVersion: String) {
        self.path = path
        self.status = status
        self.bletraceVersion = bletraceVersion
    }

    static let select = "SELECT sha256, path, status, bletrace_version FROM captures"
}

extension TriageStore {
    /// The bletrace version each stored capture was analysed with, by content hash.
    public func storedVersions() throws -> [String: String] { try stored().mapValues(\.bletraceVersion) }

    /// `TriageStoredCapture.select`'s rows by hash; a status this bletrace does not know counts as failed.
    static func storedCaptures(_ rows: [[SQLValue]]) -> [String: TriageStoredCapture] {
        var out: [String: TriageStoredCapture] = [:]
        for row in rows {
            guard row.count == 4, case let .text(sha) = row[0], case let .text(path) = row[1],
                  case let .text(status) = row[2], case let .text(version) = row[3] else { continue }
            out[sha] = TriageStoredCapture(path: path, status: TriageStatus(rawValue: status) ?? .failed, bletraceVersion: version)
        }
        return out
    }

    /// Every stored capture with its facts.
    public func load() throws -> [TriageRecord] { try TriageRecord.assemble(rows()) }

    /// Rows of two text columns (key, value) as a dictionary; other rows are left out.
    static func textPairs(_ rows: [[SQLValue]]) -> [String: String] {
        var out: [String: String] = [:]
        for row in rows {
            if row.count == 2, case let .text(k) = row[0], case let .text(v) = row[1] { out[k] = v }
        }
        return out
    }

    /// The meta rows a new store gets.
    static func initialMeta(redacted: Bool) -> [(String, String)] {
        [("schema_version", String(TriageSchema.version)), ("redacted", redacted ? "1" : "0"),
         ("created_by", "bletrace " + BLETraceVersion.string)]
    }

    /// Checks what `prepare` found in `meta`.
    static func check(_ meta: [String: String], redacted: Bool, check: Bool, name: String) throws {
        guard let v = meta["schema_version"] else {
            throw TriageStoreError.badSchema("\(name) has a meta table without schema_version: not a bletrace triage store")
        }
        guard v == String(TriageSchema.version) else {
            throw TriageStoreError.badSchema("\(name) has schema version \(v); this bletrace reads version \(TriageSchema.version) (triage into a new --db)")
        }
        if check, let r = meta["redacted"], (r == "1") != redacted {
            throw TriageStoreError.badSchema(r == "1"
                ? "\(name) holds redacted captures: triage into it with --redact, or use another --db"
                : "\(name) holds captures that are not redacted: use another --db for --redact")
        }
    }
}

/// Opens the store a `--db` value names: `postgresql://…` or `postgres://…` (or a libpq `key=value`
/// conninfo with `host=` or `dbname=`) is a PostgreSQL server, anything else an SQLite file.
public enum TriageStores {
    public static func isPostgres(_ db: String) -> Bool {
        db.hasPrefix("postgresql://") || db.hasPrefix("postgres://")
            || (db.contains("=") && (db.contains("dbname=") || db.contains("host=")))
    }

    /// How messages name the store: a PostgreSQL URL or conninfo with its password masked, a file as given.
    public static func displayName(_ db: String) -> String {
        isPostgres(db) ? PostgresConninfo.masked(db) : db
    }

    /// `readOnly` (`--report`): an SQLite file is opened read-only; `waiting` hears that a run waits for
    /// another process' lock on an SQLite file.
    public static func open(_ db: String, readOnly: Bool = false, waiting: (@Sendable (String) -> Void)? = nil) throws -> TriageStore {
        isPostgres(db) ? try PostgresTriageStore(conninfo: db) : try SQLiteTriageStore(path: db, readOnly: readOnly, waiting: waiting)
    }
}
