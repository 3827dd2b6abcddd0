// The one compile unit of the targets that build the precompiled headers
// (cmake/precompiled_headers.cmake); it defines nothing.
