/// The ten pet-care event types of the workload, with the stream category each one is written to and how
/// often it occurs (weights sum to 100).
enum WorkloadEventType: Int, CaseIterable, Sendable {
    case petAdded, petWeightLogged, vaccinationRecorded
    case bookingRequested, bookingConfirmed
    case cartItemAdded, cartItemRemoved
    case orderPlaced, stockReserved
    case messageSent

    /// The type name written to the log: pet-care names, none of them a type of the domain's catalog (whose
    /// events `pawtrail log append` reads as the domain's, while these stay the JSON they are).
    var name: String {
        switch self {
        case .petAdded: "PetRegistered"
        case .petWeightLogged: "PetWeightLogged"
        case .vaccinationRecorded: "VaccinationNoted"
        case .bookingRequested: "GroomingRequested"
        case .bookingConfirmed: "GroomingConfirmed"
        case .cartItemAdded: "BasketItemAdded"
        case .cartItemRemoved: "BasketItemRemoved"
        case .orderPlaced: "PurchasePlaced"
        case .stockReserved: "StockEarmarked"
        case .messageSent: "ChatMessageSent"
        }
    }

    /// The stream category the event goes to.
    var category: WorkloadCategory {
        switch self {
        case .petAdded, .petWeightLogged, .vaccinationRecorded: .pet
        case .bookingRequested, .bookingConfirmed: .booking
        case .cartItemAdded, .cartItemRemoved: .cart
        case .orderPlaced: .order
        case .stockReserved: .inventory
        case .messageSent: .conversation
        }
    }

    /// Relative frequency in percent: carts and chat dominate, as in a shop with a messaging feature.
    var weight: Int {
        switch self {
        case .petAdded: 4
        case .petWeightLogged: 10
        case .vaccinationRecorded: 5
        case .bookingRequested: 9
        case .bookingConfirmed: 7
        case .cartItemAdded: 22
        case .cartItemRemoved: 7
        case .orderPlaced: 10
        case .stockReserved: 10
        case .messageSent: 16
        }
    }
}
