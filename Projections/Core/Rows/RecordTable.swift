/// A table of records by key, in memory (a dictionary) or stored as rows (``KeyedTable``): what a fold shared by
/// a whole state and a keyed one (the catalog's products, which the cart also keeps) is written against.
public protocol RecordTable<Record> {
    associatedtype Record
    subscript(key: String) -> Record? { get set }
    subscript(key: String, default value: @autoclosure () -> Record) -> Record { get set }
}

extension Dictionary: RecordTable where Key == String {
    public typealias Record = Value
}

extension KeyedTable: RecordTable {}
