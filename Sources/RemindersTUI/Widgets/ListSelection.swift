/// The selected item of a list that can change under it (a refresh, an edit
/// on another device). The selection follows its item by key while the item
/// is there; when the item leaves, the selection keeps its place, so the
/// item that moved up into it is selected.
struct ListSelection<Item, Key: Equatable> {
    /// The selected item's key; nil until the list first has an item.
    var key: Key?
    /// Where the selected item stood when it was last looked up.
    private(set) var index = 0
    private let keyOf: (Item) -> Key

    init(key: @escaping (Item) -> Key) {
        keyOf = key
    }

    /// Set by `await(key:)`: the key of an item that is not in the list
    /// yet (just created, its row not read back), kept until it arrives or
    /// the user moves.
    private(set) var awaited: Key?

    /// The selected item of `items`, found by key; nil for an empty list.
    mutating func item(in items: [Item]) -> Item? {
        if let key, let found = items.firstIndex(where: { keyOf($0) == key }) {
            index = found
            if awaited == key { awaited = nil }
            return items[found]
        }
        guard !items.isEmpty else { return nil }
        index = max(0, min(index, items.count - 1))
        if awaited == nil { key = keyOf(items[index]) }
        return items[index]
    }

    /// Selects the item with `key` as soon as the list holds it.
    mutating func await(key: Key) {
        self.key = key
        awaited = key
    }

    /// Selects the item at `index`, clamped to the list. An empty list
    /// leaves the selection as it is.
    mutating func select(index: Int, in items: [Item]) {
        guard !items.isEmpty else { return }
        awaited = nil
        self.index = max(0, min(items.count - 1, index))
        key = keyOf(items[self.index])
    }

    /// Moves `offset` items from where the selected item is now, which may
    /// not be where it was when last looked up.
    mutating func move(by offset: Int, in items: [Item]) {
        _ = item(in: items)
        select(index: index + offset, in: items)
    }

    /// Follows a navigation key: one item down or up, `page` items down or
    /// up, or to either end. Other actions leave the selection alone.
    mutating func navigate(_ action: Action, page: Int, in items: [Item]) {
        switch action {
        case .down: move(by: 1, in: items)
        case .up: move(by: -1, in: items)
        case .pageDown: move(by: page, in: items)
        case .pageUp: move(by: -page, in: items)
        case .top: select(index: 0, in: items)
        case .bottom: select(index: items.count - 1, in: items)
        default: break
        }
    }

    /// Whether a click on the item at `index` opens it: a click on the item
    /// already selected does, and so does a double click.
    func clickOpens(index: Int, isDoubleClick: Bool) -> Bool {
        index == self.index || isDoubleClick
    }

    /// Forgets the selection, so that the next look-up takes the first item.
    mutating func reset() {
        key = nil
        awaited = nil
        index = 0
    }
}
