import Foundation

/// `bletrace triage` as a library call: finds the captures in the files, analyses those the store does not
/// hold yet, or holds as failed or damaged (retried: a timeout, an unreadable file), on `jobs` threads (each
/// capture once, by content hash), and writes each one's rows from the calling thread, one transaction per
/// capture, as soon as it is done. Analyses in flight are bounded (twice the jobs), so memory does not grow
/// with the number of files. At the end, a stored capture whose path was read in this run but now holds
/// other content (the file changed) is removed: its row would stand beside the new one.
public final class TriageRun: @unchecked Sendable {
    public struct Options: Sendable {
        public var jobs = ProcessInfo.processInfo.activeProcessorCount
        /// Analyse and store again captures already stored with this bletrace version.
        public var force = false
        public var analysis = TriageAnalysis.Options()
        /// Only the files of this shard (`--shard K/N`); the others are left to the other workers.
        public var shard: TriageShard?
        public init() {}
    }

    public struct Progress: Sendable {
        public var filesDone = 0
        public var filesTotal = 0
        /// Captures analysed and stored by this run, those of them stored before as failed or damaged
        /// (retried), those that failed, and those already stored (ok, by this bletrace version).
        public var analysed = 0
        public var retried = 0
        public var failed = 0
        public var skipped = 0
        public var seconds = 0.0
    }

    public struct Outcome: Sendable {
        /// The content hashes of every capture found, in input order (each once).
        public var hashes: [String] = []
        public var progress = Progress()
        /// Captures found twice (the same content under two paths): analysed and stored once.
        public var duplicates = 0
        /// Captures another process stored while this one analysed them.
        public var storedElsewhere = 0
        /// Stored captures removed because their file now holds other content.
        public var stale = 0
        /// Files left to the other shards (`Options.shard`).
        public var otherShards = 0
    }

    enum Item {
        case unit(TriageUnit, duplicate: Bool)
        case record(TriageRecord, retry: Bool)
        case skipped
        case fileDone
        case otherShard
    }

    let files: [String]
    let options: Options
    let stored: [String: TriageStoredCapture]
    let lock = NSCondition()
    var next = 0
    var active = 0
    var stop = false
    var queue: [Item] = []
    /// Records analysed but not yet written.
    var pending = 0
    var claimed = Set<String>()

    init(files: [String], options: Options, stored: [String: TriageStoredCapture]) {
        self.files = files
        self.options = options
        self.stored = stored
    }

    /// Runs the triage. `progress` is called on the calling thread after each capture and file.
    public static func run(files: [String], store: TriageStore, options: Options,
                           progress: ((Progress) -> Void)? = nil) throws -> Outcome {
        let run = TriageRun(files: files, options: options, stored: try store.stored())
        return try run.execute(store: store, progress: progress)
    }

    func execute(store: TriageStore, progress: ((Progress) -> Void)?) throws -> Outcome {
        let start = DispatchTime.now().uptimeNanoseconds
        var outcome = Outcome()
        outcome.progress.filesTotal = files.count
        let jobs = max(1, min(options.jobs, max(files.count, 1)))
        lock.lock()
        active = jobs
        lock.unlock()
        for _ in 0..<jobs {
            let t = Thread { [self] in self.work() }
            t.stackSize = 16 << 20
            t.start()
        }
        var failure: Error? = nil
        // Paths whose bytes were read (a file that could not be read says nothing of its content).
        var read = Set<String>()
        while true {
            lock.lock()
            while queue.isEmpty && active > 0 { lock.wait() }
            if queue.isEmpty && active == 0 {
                lock.unlock()
                break
            }
            let items = queue
            queue.removeAll(keepingCapacity: true)
            lock.unlock()
            for item in items {
                switch item {
                case let .unit(u, duplicate):
                    outcome.hashes.append(u.sha256)
                    if duplicate { outcome.duplicates += 1 }
                    if u.sha256 != TriageInputs.unreadableHash(u.path) { read.insert(u.path) }
                case let .record(r, retry):
                    if failure == nil {
                        do {
                            if try !store.write(r, replace: options.force || retry) { outcome.storedElsewhere += 1 }
                            outcome.progress.analysed += 1
                            if retry { outcome.progress.retried += 1 }
                            if r.capture.status == .failed { outcome.progress.failed += 1 }
                        } catch {
                            failure = error
                            lock.lock()
                            stop = true
                            lock.unlock()
                        }
                    }
                    lock.lock()
                    pending -= 1
                    lock.broadcast()
                    lock.unlock()
                case .skipped:
                    outcome.progress.skipped += 1
                case .fileDone:
                    outcome.progress.filesDone += 1
                case .otherShard:
                    outcome.otherShards += 1
                }
            }
            outcome.progress.seconds = Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9
            if failure == nil { progress?(outcome.progress) }
        }
        if let f = failure { throw f }
        let found = Set(outcome.hashes)
        let stale = stored.filter { read.contains($0.value.path) && !found.contains($0.key) }.map(\.key).sorted()
        if !stale.isEmpty {
            try store.remove(stale)
            outcome.stale = stale.count
        }
        var seen = Set<String>()
        outcome.hashes = outcome.hashes.filter { seen.insert($0).inserted }
        return outcome
    }

    func push(_ item: Item) {
        lock.lock()
        queue.append(item)
        lock.broadcast()
        lock.unlock()
    }

    /// A worker: takes the next file, finds its captures, analyses those not stored yet (or stored as failed
    /// or damaged).
    func work() {
        let limit = 2 * max(1, options.jobs)
        while true {
            lock.lock()
            guard !stop, next < files.count else {
                active -= 1
                lock.broadcast()
                lock.unlock()
                return
            }
            let path = files[next]
            next += 1
            lock.unlock()
            let units = TriageInputs.units(of: path)
            // The units of a file share its hash: the whole file is in this shard or in another.
            if let shard = options.shard, let first = units.first, !shard.contains(first.fileSHA256) {
                push(.otherShard)
                push(.fileDone)
                continue
            }
            for unit in units {
                lock.lock()
                let duplicate = !claimed.insert(unit.sha256).inserted
                let known = stored[unit.sha256].flatMap { $0.bletraceVersion == options.analysis.version ? $0.status : nil }
                let halted = stop
                lock.unlock()
                push(.unit(unit, duplicate: duplicate))
                if halted { break }
                // The same content found again in this run: counted as a duplicate, not as already stored.
                if duplicate { continue }
                if !options.force && known == .ok {
                    push(.skipped)
                    continue
                }
                let record = TriageAnalysis.analyse(unit, options: options.analysis)
                lock.lock()
                while pending >= limit && !stop { lock.wait() }
                pending += 1
                queue.append(.record(record, retry: !options.force && known != nil))
                lock.broadcast()
                lock.unlock()
            }
            push(.fileDone)
        }
    }
}
