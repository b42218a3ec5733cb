/// A renderer that reads the analysis layers and the pipeline when the capture ends (Markdown, HTML): it
/// needs the activity log beside the standard layers.
public protocol LayerReadingRenderer: AnyObject {
    var layers: [AnalysisLayer] { get set }
    var pipeline: Pipeline? { get set }
}

extension MarkdownRenderer: LayerReadingRenderer {}
extension HTMLRenderer: LayerReadingRenderer {}

extension Analyzer {
    /// Adds the activity log and hands `renderer` the layers and the pipeline.
    public func attach(_ renderer: LayerReadingRenderer) {
        addActivityLog()
        renderer.layers = layers
        renderer.pipeline = pipeline
    }
}
