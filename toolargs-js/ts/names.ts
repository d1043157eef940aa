// Generated from the Rust registry of repair rules and error codes (`toolargs_core::Rule::ALL`
// and `Code::ALL`, in their order) by `tests/npm.rs`, which fails when this file is not what
// they make, and writes it again when run with TOOLARGS_BLESS=1:
//
//   TOOLARGS_BLESS=1 cargo test -p toolargs-js --test npm the_names_are_the_registrys

/** The stable name of a repair rule (`Repair.rule`): what was changed, with exactly one
 * possible reading. */
export type Rule =
  | "strip_code_fence"
  | "unwrap_double_encoded"
  | "empty_to_object"
  | "numeric_string_to_int"
  | "integral_float_to_int"
  | "numeric_string_to_number"
  | "string_to_bool"
  | "enum_casefold"
  | "scalar_to_list"
  | "null_to_absent"
  | "strip_unknown_field";

/** The stable code of an argument error (`ArgumentError.code`), which the model can act on. */
export type Code =
  | "invalid_json"
  | "not_object"
  | "duplicate_key"
  | "non_finite_number"
  | "ambiguous_integer"
  | "lossy_number"
  | "ambiguous_number"
  | "ambiguous_boolean"
  | "type"
  | "out_of_range"
  | "pattern"
  | "length"
  | "enum"
  | "ambiguous_list"
  | "ambiguous_date"
  | "invalid_date"
  | "ambiguous_datetime"
  | "invalid_datetime"
  | "missing"
  | "unknown_field"
  | "repair_forbidden"
  | "too_large"
  | "too_deep"
  | "too_long"
  | "too_many_items"
  | "too_many_keys"
  | "duplicate_item"
  | "ambiguous_variant"
  | "invalid_time"
  | "invalid_email"
  | "invalid_uuid"
  | "invalid_uri"
  | "invalid_ipv4"
  | "invalid_ipv6"
  | "invalid_hostname"
  | "not_multiple"
  | "contains"
  | "property_count"
  | "not_allowed"
  | "invalid_key";
