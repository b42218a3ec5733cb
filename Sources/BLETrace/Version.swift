public enum BLETraceVersion {
    public static let string = "0.1.0"
}
