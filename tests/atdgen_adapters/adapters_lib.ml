(* The OCaml modules that schemas/adapters.atd names for atdgen's functors
   (Type_and_value_fields.Make, Type_field.Make), with the parameters its
   <c adapter.*> give atdc. *)
module Kind_payload = Atdgen_runtime.Json_adapter.Type_and_value_fields.Make (struct
  let type_field_name = "kind"
  let value_field_name = "payload"
  let known_tags = None
end)

module Kind_payload2 = Atdgen_runtime.Json_adapter.Type_and_value_fields.Make (struct
  let type_field_name = "kind"
  let value_field_name = "payload2"
  let known_tags = Some ([ "a"; "Event" ], "Unknown")
end)

module Kind_field = Atdgen_runtime.Json_adapter.Type_field.Make (struct
  let type_field_name = "kind"
end)
