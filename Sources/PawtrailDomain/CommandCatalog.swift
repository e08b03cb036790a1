/// Every command of the domain, in the order help lists them. The CLI builds one verb per command from this
/// list, and `pawtrail exec` finds commands here by name.
public enum CommandCatalog {
    /// The command types.
    public static let all: [any DomainCommand.Type] = [
        // accounts
        SignUp.self, Login.self, Logout.self, RestoreSession.self, RequestPasswordReset.self, ChangePassword.self,
        ChangeEmail.self, UpdateProfile.self, ChangeProfileImage.self, ChangeLanguage.self, DeleteAccount.self,
        BootstrapAdmin.self, GrantRole.self, RevokeRole.self,
        // pets
        AddPet.self, EditPet.self, RemovePet.self,
        RecordVaccination.self, OpenHealthIssue.self, ResolveHealthIssue.self, SetVet.self, StartTreatment.self,
        EndTreatment.self, SetNextVetAppointment.self, SetFoodPlan.self, LogWeight.self,
        // grooming bookings
        RequestBooking.self, ConfirmBooking.self, CompleteBooking.self, CancelBooking.self, RescheduleBooking.self, RecordNoShow.self,
        SetGroomingService.self, SetSalonCapacity.self,
        // vet requests
        SubmitVetRequest.self, AnswerVetRequest.self, CloseVetRequest.self,
        // carts
        AddToCart.self, ChangeCartQuantity.self, RemoveFromCart.self, ClearCart.self,
        // favourites
        AddFavourite.self, RemoveFavourite.self,
        // catalog and inventory
        AddProduct.self, EditProduct.self, RepriceProduct.self, DelistProduct.self, RelistProduct.self, SeedCatalog.self,
        ReceiveStock.self, AdjustStock.self,
        // checkout and orders
        PlaceOrder.self, ConfirmOrder.self, ShipOrder.self, DeliverOrder.self, CancelOrder.self, CollectOrderPayment.self,
        ReturnOrder.self, RefundOrder.self,
        // point of sale
        SellInStore.self,
        // messaging
        StartConversation.self, SendMessage.self, MarkMessageDelivered.self, MarkMessagesRead.self,
        // settings
        SetReadPolicy.self, SetTimeZone.self,
        // notifications
        SetNotifications.self, MarkNotificationsSent.self,
    ]

    /// The command type of a name (`pet.add`).
    public static func command(named name: String) -> (any DomainCommand.Type)? {
        all.first { $0.name == name }
    }
}
