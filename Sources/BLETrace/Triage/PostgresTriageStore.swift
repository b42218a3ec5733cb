import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libpq, loaded when a PostgreSQL store is opened (`dlopen`): the default build links no client library and
/// costs nothing more; a machine without libpq gets one clear line ("install libpq5").
final class LibPQ: @unchecked Sendable {
    typealias ConnectDB = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    typealias Status = @convention(c) (OpaquePointer?) -> Int32
    typealias Message = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    typealias Exec = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
    typealias ExecParams = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<UInt32>?,
                                           UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32) -> OpaquePointer?
    typealias Count = @convention(c) (OpaquePointer?) -> Int32
    typealias GetValue = @convention(c) (OpaquePointer?, Int32, Int32) -> UnsafeMutablePointer<CChar>?
    typealias GetIsNull = @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
    typealias FType = @convention(c) (OpaquePointer?, Int32) -> UInt32
    typealias ErrorField = @convention(c) (OpaquePointer?, Int32) -> UnsafeMutablePointer<CChar>?
    typealias Free = @convention(c) (OpaquePointer?) -> Void

    let connectdb: ConnectDB, status: Status, errorMessage: Message, exec: Exec, execParams: ExecParams
    let resultStatus: Status, resultErrorMessage: Message, resultErrorField: ErrorField, ntuples: Count, nfields: Count
    let getvalue: GetValue, getisnull: GetIsNull, ftype: FType, cmdTuples: Message, clear: Free, finish: Free

    static let names = ["libpq.so.5", "libpq.so", "libpq.5.dylib", "/opt/homebrew/opt/libpq/lib/libpq.5.dylib",
                        "/usr/local/opt/libpq/lib/libpq.5.dylib"]

    init() throws {
        guard let handle = LibPQ.names.lazy.compactMap({ dlopen($0, RTLD_NOW) }).first else {
            throw TriageStoreError.cannotOpen("a PostgreSQL store needs libpq (libpq.so.5), which is not installed: install libpq5 (Debian, Ubuntu) or libpq (Homebrew)")
        }
        func sym<T>(_ name: String, _: T.Type) throws -> T {
            guard let p = dlsym(handle, name) else { throw TriageStoreError.cannotOpen("libpq lacks \(name): too old a libpq") }
            return unsafeBitCast(p, to: T.self)
        }
        connectdb = try sym("PQconnectdb", ConnectDB.self)
        status = try sym("PQstatus", Status.self)
        errorMessage = try sym("PQerrorMessage", Message.self)
        exec = try sym("PQexec", Exec.self)
        execParams = try sym("PQexecParams", ExecParams.self)
        resultStatus = try sym("PQresultStatus", Status.self)
        resultErrorMessage = try sym("PQresultErrorMessage", Message.self)
        resultErrorField = try sym("PQresultErrorField", ErrorField.self)
        ntuples = try sym("PQntuples", Count.self)
        nfields = try sym("PQnfields", Count.self)
        getvalue = try sym("PQgetvalue", GetValue.self)
        getisnull = try sym("PQgetisnull", GetIsNull.self)
        ftype = try sym("PQftype", FType.self)
        cmdTuples = try sym("PQcmdTuples", Message.self)
        clear = try sym("PQclear", Free.self)
        finish = try sym("PQfinish", Free.self)
    }
}

/// The shared store: the same tables in a PostgreSQL database, so that many machines can triage shards of
/// a fleet into one place. Parameterised statements only; each capture is one transaction whose capture
/// row is `INSERT … ON CONFLICT (sha256) DO NOTHING`: of two processes storing the same capture at once,
/// the second waits for the first to commit, then finds the row and rolls back. Serialisation failures and
/// deadlocks are retried.
public final class PostgresTriageStore: TriageStore {
    let pq: LibPQ
    let conn: OpaquePointer
    /// The conninfo with its password masked, for messages.
    let name: String
    /// The conninfo as given: libpq's messages are scrubbed of its passwords.
    let conninfo: String

    static let connectionOK: Int32 = 0
    static let commandOK: Int32 = 1
    static let tuplesOK: Int32 = 2
    static let sqlState: Int32 = 67   // PG_DIAG_SQLSTATE, 'C'

    public init(conninfo: String) throws {
        pq = try LibPQ()
        name = PostgresConninfo.masked(conninfo)
        self.conninfo = conninfo
        guard let c = pq.connectdb(conninfo) else { throw TriageStoreError.cannotOpen("cannot connect to \(name): out of memory") }
        guard pq.status(c) == PostgresTriageStore.connectionOK else {
            let why = PostgresConninfo.scrub(PostgresTriageStore.line(pq.errorMessage(c)), conninfo: conninfo)
            pq.finish(c)
            throw TriageStoreError.cannotOpen("cannot connect to PostgreSQL \(name): \(why)")
        }
        conn = c
        _ = try? command("SET client_min_messages = warning")
    }

    static func line(_ p: UnsafeMutablePointer<CChar>?) -> String {
        guard let p else { return "unknown error" }
        let s = String(cString: p).trimmingCharacters(in: .whitespacesAndNewlines)
        return s.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
    }

    /// A message of libpq or the server on one line, without the conninfo's passwords.
    func told(_ p: UnsafeMutablePointer<CChar>?) -> String {
        PostgresConninfo.scrub(PostgresTriageStore.line(p), conninfo: conninfo)
    }

    /// An error from the server, with its SQLSTATE for the retry decision.
    struct ServerError: Error {
        var state: String
        var message: String
        var retryable: Bool { state == "40001" || state == "40P01" || state == "23505" }
    }

    /// Runs one statement with text parameters; returns the result's rows (typed by column OID) and the
    /// number of rows a command touched.
    @discardableResult
    func run(_ sql: String, _ params: [SQLValue] = []) throws -> (rows: [[SQLValue]], changed: Int) {
        let strings: [String?] = params.map { v in
            switch v {
            case .null: return nil
            case let .int(i): return String(i)
            case let .double(d): return String(d)
            case let .text(s): return s
            }
        }
        let result: OpaquePointer? = withCStrings(strings) { pointers in
            params.isEmpty ? pq.exec(conn, sql)
                : pq.execParams(conn, sql, Int32(strings.count), nil, pointers, nil, nil, 0)
        }
        guard let r = result else { throw ServerError(state: "", message: told(pq.errorMessage(conn))) }
        defer { pq.clear(r) }
        let st = pq.resultStatus(r)
        guard st == PostgresTriageStore.commandOK || st == PostgresTriageStore.tuplesOK else {
            let state = pq.resultErrorField(r, PostgresTriageStore.sqlState).map { String(cString: $0) } ?? ""
            throw ServerError(state: state, message: told(pq.resultErrorMessage(r)))
        }
        let changed = pq.cmdTuples(r).flatMap { Int(String(cString: $0)) } ?? 0
        var rows: [[SQLValue]] = []
        let n = pq.ntuples(r), m = pq.nfields(r)
        if n > 0 && m > 0 {
            let types = (0..<m).map { pq.ftype(r, $0) }
            rows.reserveCapacity(Int(n))
            for i in 0..<n {
                rows.append((0..<m).map { j in
                    if pq.getisnull(r, i, j) != 0 { return .null }
                    let s = pq.getvalue(r, i, j).map { String(cString: $0) } ?? ""
                    switch types[Int(j)] {
                    case 20, 21, 23: return Int64(s).map { .int($0) } ?? .text(s)    // int8, int2, int4
                    case 700, 701: return Double(s).map { .double($0) } ?? .text(s)  // float4, float8
                    default: return .text(s)
                    }
                })
            }
        }
        return (rows, changed)
    }

    func withCStrings<T>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
        let owned: [UnsafeMutablePointer<CChar>?] = strings.map { $0.flatMap { strdup($0) } }
        defer { for p in owned { free(p) } }
        let pointers: [UnsafePointer<CChar>?] = owned.map { $0.map { UnsafePointer($0) } }
        return pointers.withUnsafeBufferPointer { buf in
            // An empty array has no base address; no statement without parameters passes here.
            guard let base = buf.baseAddress else {
                var none: UnsafePointer<CChar>? = nil
                return withUnsafePointer(to: &none) { body($0) }
            }
            return body(base)
        }
    }

    func command(_ sql: String, _ params: [SQLValue] = []) throws {
        do { try run(sql, params) } catch let e as ServerError { throw TriageStoreError.failed("\(name): \(e.message)") }
    }

    /// Runs `body` in a transaction, retried (up to 8 times) when the server reports a serialisation
    /// failure, a deadlock or a unique violation from a concurrent writer.
    func transaction<T>(_ what: String, _ body: () throws -> T) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                try run("BEGIN")
                let v = try body()
                try run("COMMIT")
                return v
            } catch let e as ServerError {
                _ = try? run("ROLLBACK")
                if e.retryable && attempt < 8 {
                    usleep(UInt32(10_000 * attempt))
                    continue
                }
                throw TriageStoreError.failed("\(name): \(what): \(e.message)")
            } catch {
                _ = try? run("ROLLBACK")
                throw error
            }
        }
    }

    public func prepare(redacted: Bool, check: Bool) throws {
        if check, try missingTables() {
            do {
                try transaction("cannot create the tables") {
                    // Concurrent CREATE TABLE IF NOT EXISTS can collide in the catalog: one process at a time.
                    try run("SELECT pg_advisory_xact_lock(7260418)")
                    for sql in TriageSchema.ddl { try run(sql) }
                    for (k, v) in Self.initialMeta(redacted: redacted) {
                        try run("INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", [.text(k), .text(v)])
                    }
                }
            } catch let e as TriageStoreError where e.description.contains("permission denied") {
                throw TriageStoreError.cannotOpen("\(name) has no triage tables and this role may not create them (\(e.description)): have the database's owner run bletrace triage --db URL --create-schema once (docs/triage.md)")
            }
        }
        try Self.check(try meta(), redacted: redacted, check: check, name: name)
    }

    /// Whether a table of the store is missing from the schemas of the search path.
    func missingTables() throws -> Bool {
        let tests: [String] = TriageSchema.tableNames.map { name in "to_regclass('" + name + "') IS NULL" }
        let sql = "SELECT " + tests.joined(separator: " OR ")
        do {
            let first: SQLValue? = try run(sql).rows.first?.first
            return first == SQLValue.text("t")
        } catch let e as ServerError {
            throw TriageStoreError.failed("\(name): cannot read the catalog: \(e.message)")
        }
    }

    public func meta() throws -> [String: String] {
        do {
            return Self.textPairs(try run("SELECT key, value FROM meta").rows)
        } catch let e as ServerError {
            throw TriageStoreError.badSchema("\(name) is not a bletrace triage store: \(e.message)")
        }
    }

    public func stored() throws -> [String: TriageStoredCapture] {
        do {
            return Self.storedCaptures(try run(TriageStoredCapture.select).rows)
        } catch let e as ServerError {
            throw TriageStoreError.failed("\(name): cannot read the stored captures: \(e.message)")
        }
    }

    public func remove(_ hashes: [String]) throws {
        try transaction("cannot remove stale captures") {
            for h in hashes { try run("DELETE FROM captures WHERE sha256 = $1", [.text(h)]) }
        }
    }

    @discardableResult
    public func write(_ record: TriageRecord, replace: Bool) throws -> Bool {
        let rows = record.rows
        let sha = SQLValue.text(record.capture.sha256), version = SQLValue.text(record.capture.bletraceVersion)
        return try transaction("cannot store \(record.capture.displayName)") {
            if replace {
                try run("DELETE FROM captures WHERE sha256 = $1", [sha])
            } else {
                try run("DELETE FROM captures WHERE sha256 = $1 AND bletrace_version <> $2", [sha, version])
            }
            for (i, (table, list)) in rows.enumerated() {
                var sql = TriageSchema.insert(table, dollar: true)
                if i == 0 { sql += " ON CONFLICT (sha256) DO NOTHING" }
                for values in list {
                    let changed = try run(sql, values).changed
                    if i == 0 && changed == 0 { return false }
                }
            }
            return true
        }
    }

    public func rows() throws -> [String: [[SQLValue]]] {
        var out: [String: [[SQLValue]]] = [:]
        for table in TriageSchema.tables {
            do {
                out[table.name] = try run(TriageSchema.select(table)).rows
            } catch let e as ServerError {
                throw TriageStoreError.failed("\(name): cannot read \(table.name): \(e.message)")
            }
        }
        return out
    }

    var closed = false

    public func close() {
        guard !closed else { return }
        closed = true
        pq.finish(conn)
    }

    deinit { close() }
}
